import { EmailOpened, type EmailLifecycleV1, type EventEnvelope } from '@herald/contracts';
import type { EventBatchContext } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import type { ReadModelStore } from '../contacts/read-model.store.js';
import type { MembershipEngine } from '../membership/membership-engine.js';
import { ReadModelHandlers } from './read-model.handlers.js';

describe('email engagement in the segments read model', () => {
  it('an email event of test mode (docs/test-mode.md) is no engagement: nothing is written or re-evaluated for it', async () => {
    const looked: unknown[][] = [];
    const written: unknown[][] = [];
    const writer = {
      contactIdsFor: async (_m: EntityManager, keys: { contactId?: string }[]) => {
        looked.push(keys.map((k) => k.contactId));
        return keys.map((k) => k.contactId);
      },
      addEngagements: async (_m: EntityManager, rows: { contactId: string; kind: string }[]) =>
        void written.push(rows.map((r) => [r.contactId, r.kind])),
    } as unknown as ReadModelStore;
    const membership = { onContactsChanged: async () => undefined } as unknown as MembershipEngine;
    const opened = (contactId: string, testMode?: true) =>
      EmailOpened.create({
        projectId: 'prj_1',
        source: 'sending',
        payload: {
          emailId: `eml_${contactId}`,
          contactId,
          email: `${contactId}@example.com`,
          ...(testMode ? { testMode } : {}),
        },
      }) as EventEnvelope<EmailLifecycleV1>;
    await new ReadModelHandlers(writer, membership).onOpened([opened('cnt_test', true), opened('cnt_live')], {
      manager: {} as EntityManager,
    } as EventBatchContext);
    expect(looked).toEqual([['cnt_live']]);
    expect(written).toEqual([[['cnt_live', 'opened']]]);
  });
});
