import type { EmailLifecycleV1, EventEnvelope } from '@herald/contracts';
import type { EventBatchContext, EventContext } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import type { ReputationService } from '../reputation/reputation.service.js';
import type { BillingMeter, MeteredEvent } from './billing-meter.js';
import { MeteringHandlers } from './metering.handlers.js';

const event = (emailId: string, testMode?: true) =>
  ({
    projectId: 'prj_1',
    occurredAt: '2026-05-01T00:00:00Z',
    payload: { emailId, email: `${emailId}@example.com`, origin: 'api', ...(testMode ? { testMode } : {}) },
  }) as EventEnvelope<EmailLifecycleV1>;

/** Handlers over a meter and a reputation that record what they are asked. */
function handlers() {
  const metered: { ids: (string | undefined)[]; bounced: boolean }[] = [];
  const complaints: (string | undefined)[] = [];
  const judged: string[] = [];
  const meter = {
    emails: async (_m: EntityManager, events: MeteredEvent[], bounced: boolean) =>
      void metered.push({ ids: events.map((e) => e.payload.emailId), bounced }),
    complaint: async (_m: EntityManager, _p: string, p: EmailLifecycleV1) => void complaints.push(p.emailId),
  } as unknown as BillingMeter;
  const reputation = {
    evaluate: async (_m: EntityManager, projectId: string) => void judged.push(projectId),
  } as unknown as ReputationService;
  return { h: new MeteringHandlers(meter, reputation), metered, complaints, judged };
}

const batch = { manager: {} as EntityManager } as EventBatchContext;
const one = { manager: {} as EntityManager } as EventContext;

describe('metering of email events: test mode counts nowhere (docs/test-mode.md)', () => {
  it('sends and bounces of test mode are left out of usage; live ones of the same batch are counted', async () => {
    const { h, metered, judged } = handlers();
    await h.onSent([event('eml_live'), event('eml_test', true)], batch);
    await h.onBounced([event('eml_test2', true), event('eml_live2')], batch);
    expect(metered).toEqual([
      { ids: ['eml_live'], bounced: false },
      { ids: ['eml_live2'], bounced: true },
    ]);
    expect(judged).toEqual(['prj_1']);
  });

  it('a batch of test-mode bounces and a test-mode complaint change neither usage nor the reputation, which is not judged', async () => {
    const { h, metered, complaints, judged } = handlers();
    await h.onBounced([event('eml_a', true), event('eml_b', true)], batch);
    await h.onComplained(event('eml_c', true), one);
    expect([metered, complaints, judged]).toEqual([[], [], []]);
    await h.onComplained(event('eml_d'), one);
    expect([complaints, judged]).toEqual([['eml_d'], ['prj_1']]);
  });
});
