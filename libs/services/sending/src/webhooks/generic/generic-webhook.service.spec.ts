import { DomainError } from '@herald/core';
import { statusForKind } from '@herald/http';
import { RecordingSink } from '../ses/sns.spec-support.js';
import { WebhooksSettings } from '../webhooks.settings.js';
import { signGenericWebhook } from './generic-signature.js';
import { GenericWebhookService } from './generic-webhook.service.js';

const SECRET = 'whsec_unit_0123456789abcdef';
const settings = (secret?: string): WebhooksSettings =>
  Object.assign(new WebhooksSettings(), secret ? { WEBHOOK_SIGNING_SECRET: secret } : {});
const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: unknown) => (e instanceof DomainError ? statusForKind[e.kind] : -1),
  );

describe('generic webhook intake', () => {
  it('answers 503 (not enabled) when WEBHOOK_SIGNING_SECRET is not set, and records nothing', async () => {
    const sink = new RecordingSink();
    const body = Buffer.from(JSON.stringify({ id: 'x', type: 'delivery', email: 'a@example.org' }));
    const err = await new GenericWebhookService(settings(), sink)
      .receive(signGenericWebhook('whatever-secret-123', body), body)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(statusForKind[(err as DomainError).kind]).toBe(503);
    expect((err as DomainError).message).toMatch(/WEBHOOK_SIGNING_SECRET is not set/);
    expect(sink.calls).toEqual([]);
  });

  it('checks the signature before reading the body (a bad body with a bad signature is 401, not 400)', async () => {
    const service = new GenericWebhookService(settings(SECRET), new RecordingSink());
    expect(await statusOf(service.receive('t=1,v1=00', Buffer.from('{not json')))).toBe(401);
    expect(await statusOf(service.receive(signGenericWebhook(SECRET, '{not json'), Buffer.from('{not json')))).toBe(
      400,
    );
  });

  it('requires bounceType on bounces only', async () => {
    const service = new GenericWebhookService(settings(SECRET), new RecordingSink());
    const send = (item: object) => {
      const raw = Buffer.from(JSON.stringify(item));
      return statusOf(service.receive(signGenericWebhook(SECRET, raw), raw));
    };
    expect(await send({ id: 'a', type: 'bounce', email: 'a@example.org' })).toBe(422);
    expect(await send({ id: 'b', type: 'bounce', email: 'a@example.org', bounceType: 'hard' })).toBe(422);
    expect(await send({ id: 'c', type: 'complaint', email: 'a@example.org' })).toBe(200);
    expect(await send({ id: 'd', type: 'complaint', email: 'a@example.org', occurredAt: 'yesterday' })).toBe(422);
  });

  it('keeps bounceType off complaints and deliveries, and defaults occurredAt to now', async () => {
    const sink = new RecordingSink();
    const service = new GenericWebhookService(settings(SECRET), sink);
    const raw = Buffer.from(
      JSON.stringify({ id: 'e', type: 'complaint', email: ' a@example.org ', bounceType: 'permanent' }),
    );
    const before = Date.now();
    await service.receive(signGenericWebhook(SECRET, raw), raw);
    expect(sink.calls[0]).not.toHaveProperty('bounceType');
    expect(sink.calls[0]!.recipients).toEqual(['a@example.org']);
    expect(sink.calls[0]!.occurredAt.getTime()).toBeGreaterThanOrEqual(before);
  });
});
