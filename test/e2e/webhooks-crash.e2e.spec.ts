import { randomUUID } from 'node:crypto';
import { eventually, SHARED_TOPOLOGY_ENV, startTopology, testReport, type Topology } from '@herald/testing';
import { Webhook } from 'standardwebhooks';
import { csv, newProject } from './contacts-helpers.js';
import { WebhookReceiver } from './webhooks-helpers.js';

/**
 * Durable, at-least-once deliveries across a crash (issue 42, "A crash test"): 1,000 events for one
 * endpoint; the process hosting the webhooks service is killed (SIGKILL) while they are being
 * delivered and started again: every event reaches the receiver at least once, signed, none is lost.
 * Distributed: the webhooks process alone; standalone: the one process. Leases of a killed worker's
 * links run out after JOB_LEASE_MS.
 */
describe('webhook deliveries survive SIGKILL of the webhooks process', () => {
  const N = 1000;
  let herald: Topology;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    [herald, receiver] = await Promise.all([
      startTopology({ exclusive: true, env: { ...SHARED_TOPOLOGY_ENV, JOB_LEASE_MS: '3000' } }),
      // a receiver that takes its time, so that the kill falls in the middle of the deliveries
      new WebhookReceiver(15).start(),
    ]);
  }, 600_000);
  afterAll(async () => {
    await Promise.all([herald?.stop(), receiver?.stop()]);
  }, 60_000);

  it('every one of 1,000 events is delivered at least once, none lost', async () => {
    const api = await newProject(herald.url);
    const at = `/ok/${randomUUID()}`;
    const created = await api.post<{ id: string; secret: string }>('/webhooks/endpoints', {
      url: receiver.url(at),
      eventTypes: ['contact.created'],
    });
    expect(created.status).toBe(201);
    const emails = Array.from({ length: N }, (_, i) => `crash-${i}-${randomUUID().slice(0, 8)}@example.com`);
    const job = await api.importAndWait(csv(['email'], ...emails.map((e) => [e])));
    expect(job).toMatchObject({ status: 'completed' });

    await eventually(() => receiver.ids(at).size >= N / 5, { timeoutMs: 120_000 });
    const beforeKill = receiver.ids(at).size;
    const killed = Date.now();
    await herald.restart('webhooks', 'SIGKILL');
    expect(beforeKill).toBeLessThan(N);

    await eventually(() => receiver.ids(at).size === N, {
      timeoutMs: 180_000,
      message: `${N} distinct events at the receiver`,
    });
    const signer = new Webhook(created.body.secret);
    const delivered = new Set(
      receiver
        .at(at)
        .map(
          (r) => (signer.verify(r.body, r.headers as Record<string, string>) as { data: { email: string } }).data.email,
        ),
    );
    expect(delivered).toEqual(new Set(emails));
    testReport(
      `webhooks crash (${herald.mode}): ${beforeKill} of ${N} events delivered before SIGKILL, all ${N} ${Math.round(
        (Date.now() - killed) / 1000,
      )} s after it, ${receiver.at(at).length - N} delivered twice`,
    );
  }, 600_000);
});
