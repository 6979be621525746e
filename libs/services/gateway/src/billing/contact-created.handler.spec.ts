import type { ContactCreatedV1, EventEnvelope } from '@herald/contracts';
import type { EventBatchContext } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import type { ProjectSetupStore } from '../projects/setup/project-setup.store.js';
import type { BillingMeter } from './billing-meter.js';
import { ContactCreatedHandler } from './contact-created.handler.js';

const created = (projectId: string, occurredAt: string) =>
  ({ projectId, occurredAt, payload: {} }) as EventEnvelope<ContactCreatedV1>;

describe('contact.created at the gateway: onboarding state and the stored-contacts gauge', () => {
  it("notes each project's first contact of the batch with one insert (projects in order), and adds each project's count to its gauge", async () => {
    const noted: unknown[][] = [];
    const gauge: unknown[][] = [];
    const manager = {} as EntityManager;
    const setup = {
      noteFirstContacts: async (m: EntityManager, projects: string[], firstAt: string[]) =>
        void noted.push([m, projects, firstAt]),
    } as unknown as ProjectSetupStore;
    const meter = {
      contacts: async (m: EntityManager, projectId: string, n: number) => void gauge.push([m, projectId, n]),
    } as unknown as BillingMeter;
    await new ContactCreatedHandler(setup, meter).onContactsCreated(
      [
        created('prj_b', '2026-05-01T00:00:02Z'),
        created('prj_a', '2026-05-01T00:00:01Z'),
        created('prj_b', '2026-05-01T00:00:03Z'),
      ],
      { manager } as EventBatchContext,
    );
    expect(noted).toEqual([[manager, ['prj_a', 'prj_b'], ['2026-05-01T00:00:01Z', '2026-05-01T00:00:02Z']]]);
    expect(gauge).toEqual([
      [manager, 'prj_b', 2],
      [manager, 'prj_a', 1],
    ]);
  });
});
