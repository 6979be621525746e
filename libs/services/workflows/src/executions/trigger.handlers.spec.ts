import { EmailBounced, EmailDelivered, type EmailLifecycleV1, type EventEnvelope } from '@herald/contracts';
import type { EventBatchContext } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import type { ApplyContactEventsUseCase, EmailContactEvent } from './apply-contact-events.use-case.js';
import { TriggerHandlers } from './trigger.handlers.js';

const payload = (emailId: string, testMode?: true): EmailLifecycleV1 => ({
  emailId,
  contactId: `cnt_${emailId}`,
  email: `${emailId}@example.com`,
  ...(testMode ? { testMode } : {}),
});

describe('workflow triggers on email events', () => {
  it('test-mode email events (docs/test-mode.md) start and resume nothing; live ones of the same run do', async () => {
    const applied: EmailContactEvent[][] = [];
    const handlers = new TriggerHandlers({
      emails: async (_m: EntityManager, events: EmailContactEvent[]) => void applied.push(events),
    } as unknown as ApplyContactEventsUseCase);
    const ctx = { manager: {} as EntityManager } as EventBatchContext;
    const envelope = (contract: typeof EmailBounced, p: EmailLifecycleV1) =>
      contract.create({ projectId: 'prj_1', source: 'sending', payload: p }) as EventEnvelope<EmailLifecycleV1>;

    await handlers.onBounced([envelope(EmailBounced, payload('a', true)), envelope(EmailBounced, payload('b'))], ctx);
    await handlers.onDelivered([envelope(EmailDelivered, payload('c', true))], ctx);
    expect(applied.map((run) => run.map((e) => [e.name, e.contactId]))).toEqual([[['email.bounced', 'cnt_b']], []]);
  });
});
