import { emailEventPayload } from '../delivery/email-events.js';

describe('emailEventPayload', () => {
  it('carries the origin, campaignId and workflowId of the email so the callers can follow it', () => {
    const base = { id: 'eml_1', contactId: 'ctc_1', toEmail: 'a@b.test', subject: 'S', templateId: null };
    expect(emailEventPayload({ ...base, origin: 'campaign', campaignId: 'cmp_1', workflowId: null })).toEqual({
      emailId: 'eml_1',
      contactId: 'ctc_1',
      email: 'a@b.test',
      subject: 'S',
      origin: 'campaign',
      campaignId: 'cmp_1',
    });
    expect(emailEventPayload({ ...base, origin: 'workflow', workflowId: 'wfl_1' })).toMatchObject({
      origin: 'workflow',
      workflowId: 'wfl_1',
    });
  });
});
