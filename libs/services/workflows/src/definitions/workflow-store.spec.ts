import type { EventEnvelope, ResourceReferencesChangedV1 } from '@herald/contracts';
import type { Outbox } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import type { Workflow } from './workflow.entity.js';
import { WorkflowStore } from './workflow-store.js';

/** The outbox as the store uses it: what it was handed, in order. */
class RecordingOutbox {
  readonly added: EventEnvelope[] = [];
  async add(_m: EntityManager, ...envelopes: EventEnvelope[]): Promise<void> {
    this.added.push(...envelopes);
  }
}

describe("a workflow's references (usage)", () => {
  it('deleting a workflow publishes resource.references.changed with no references and deleted: true, at the next revision', async () => {
    const outbox = new RecordingOutbox();
    const store = new WorkflowStore(outbox as unknown as Outbox);
    const w = { id: 'wf_1', projectId: 'prj_1', name: 'Onboarding', version: 4 } as Workflow;
    await store.unpublish({} as EntityManager, w, 'req_1');
    expect(outbox.added).toHaveLength(1);
    const [event] = outbox.added as EventEnvelope<ResourceReferencesChangedV1>[];
    expect([event!.type, event!.correlationId, event!.payload]).toEqual([
      'resource.references.changed',
      'req_1',
      {
        resourceKind: 'workflow',
        resourceId: 'wf_1',
        resourceName: 'Onboarding',
        revision: 5,
        references: [],
        deleted: true,
      },
    ]);
  });
});
