import { DomainError } from '@herald/core';
import type { Campaign } from '../campaigns/campaign.entity.js';
import { testSendAnswer, testSendItem } from './tester-send.js';

const campaign = {
  id: 'cmp_1',
  subject: 'Hello {{name}}',
  body: '<p>Hi</p>',
  from: 'news@brand.test',
  fromName: 'Brand',
  replyTo: null,
  templateId: null,
} as Campaign;

const refusal = (fn: () => unknown): { kind: string; errors: unknown } | null => {
  try {
    fn();
    return null;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { kind: err.kind, errors: err.details.errors };
  }
};

describe('a test send', () => {
  it('asks sending for a test (sent whatever the contact) with no campaignId and no contact snapshot: no ledger row, no stats, no contact written', () => {
    const item = testSendItem(campaign, 'designer@agency.test', 'campaign-test:cmp_1:k');
    expect(item).toMatchObject({
      to: 'designer@agency.test',
      subject: '[Test] Hello {{name}}',
      category: 'marketing',
      origin: 'campaign',
      priority: 'normal',
      test: true,
    });
    expect(item).not.toHaveProperty('campaignId');
    expect(item).not.toHaveProperty('contact');
  });

  it('answers what happened: queued, with the email id', () => {
    expect(testSendAnswer('a@b.test', { key: 'k', status: 'queued', emailId: 'eml_1' })).toEqual({
      success: true,
      email: 'a@b.test',
      status: 'queued',
      emailId: 'eml_1',
    });
  });

  it('refuses a suppressed address with a 422 ADDRESS_SUPPRESSED on email instead of skipping it quietly', () => {
    expect(
      refusal(() =>
        testSendAnswer('a@b.test', { key: 'k', status: 'skipped', emailId: 'eml_1', reason: 'suppressed' }),
      ),
    ).toEqual({ kind: 'invalid', errors: [expect.objectContaining({ field: 'email', code: 'ADDRESS_SUPPRESSED' })] });
    expect(
      refusal(() =>
        testSendAnswer('a@b', { key: 'k', status: 'skipped', emailId: 'eml_1', reason: 'invalid_address' }),
      ),
    ).toEqual({ kind: 'invalid', errors: [expect.objectContaining({ field: 'email' })] });
  });

  it('takes a test skipped as unsubscribed for a fault of the deployment, not of the request: a 503 to retry', () => {
    expect(() =>
      testSendAnswer('a@b.test', { key: 'k', status: 'skipped', emailId: 'eml_1', reason: 'unsubscribed' }),
    ).toThrow(expect.objectContaining({ kind: 'unavailable', code: 'SENDING_UNAVAILABLE' }));
  });
});
