import type { HeraldRuntime } from '@herald/core';
import { CallHandlers, InternalCalls, Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import { createTemplateRenderPool } from '@herald/templating';
import type { DataSource, EntityManager } from 'typeorm';
import {
  CONTACTS,
  ContactsService,
  contactsSchema,
  ContactsCallHandlers,
  ContactWriter,
  FieldRegistry,
} from '@herald/service-contacts';
import {
  ContactsClient,
  StepEffects,
  type SendingClient,
  type StepTask,
  type WorkflowExecution,
  type WorkflowsSettings,
  type WorkflowStepRun,
} from '@herald/service-workflows';

/**
 * A workflow's UPDATE_CONTACT step is applied once per step run (issue 23: "a contact update is
 * applied once"): the step's effects (workflows' StepEffects and its contacts client) against the
 * contacts service's upsert on PostgreSQL, through the call's contract in process (ContactsCalls, as
 * in standalone mode). A step run redelivered after the contact changed meanwhile must not write again.
 */
describe('UPDATE_CONTACT applied once per step run (workflows → contacts, PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let contacts: ContactsService;
  let effects: StepEffects;
  let project: string;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    contacts = new ContactsService(ds, new ContactWriter(new Outbox(CONTACTS, ds), new FieldRegistry(ds)));
    const runtime = { mode: 'standalone', internalJwtSecret: 'x'.repeat(32), selfUrl: 'http://127.0.0.1:9' };
    const handlers = new CallHandlers({ observe: async () => undefined });
    new ContactsCallHandlers(handlers, contacts, {} as never).onModuleInit();
    const client = new ContactsClient(new InternalCalls(runtime as HeraldRuntime, handlers));
    effects = new StepEffects(
      client,
      {} as SendingClient,
      { WORKFLOW_WEBHOOK_SECRET: 'wfsec' } as WorkflowsSettings,
      runtime as HeraldRuntime,
      createTemplateRenderPool(0),
    );
  });
  beforeEach(() => {
    project = `prj_update_once_${++n}`;
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const task = (runId: string, email: string, data: Record<string, unknown>): StepTask => ({
    run: { id: runId } as WorkflowStepRun,
    execution: {
      id: 'wfe_1',
      projectId: project,
      workflowId: 'wf_1',
      contactId: 'cnt_x',
      email,
      event: {},
      context: {},
    } as unknown as WorkflowExecution,
    step: { id: 'stp_update', type: 'UPDATE_CONTACT', name: 'update', config: { data } } as unknown as StepTask['step'],
    workflowName: 'wf',
  });
  const runStep = async (t: StepTask) => (await effects.runAll([t], {} as EntityManager)).get(t.run.id)!;
  const dataOf = async (email: string) => (await contacts.getByEmails(project, [email]))[0]!.data;
  /** `contact.updated` events of the contact (its timeline and every consumer's view of a change). */
  const updates = async (email: string) =>
    (
      await ds.query(
        `SELECT count(*)::int AS n FROM contacts.outbox WHERE topic = 'contact.updated' AND envelope->>'projectId' = $1
           AND envelope->'payload'->>'email' = $2`,
        [project, email],
      )
    )[0].n as number;

  it('a step run applied again after the contact changed meanwhile writes nothing and publishes no second change', async () => {
    await contacts.upsert(project, { email: 'ada@example.com', data: { plan: 'free' } });
    const before = await updates('ada@example.com');
    const t = task('wfr_once_1', 'ada@example.com', { plan: 'pro' });

    expect(await runStep(t)).toMatchObject({
      kind: 'next',
      outcome: 'updated',
      detail: { changedKeys: ['data.plan'] },
    });
    await contacts.upsert(project, { email: 'ada@example.com', data: { plan: 'enterprise' } });
    // the same step run again (a redelivery, a retry after a crash before workflows committed)
    expect(await runStep(t)).toMatchObject({
      kind: 'next',
      outcome: 'updated',
      detail: { changedKeys: [], duplicate: true },
    });

    expect(await dataOf('ada@example.com')).toEqual({ plan: 'enterprise' });
    expect((await updates('ada@example.com')) - before).toBe(2);
  });

  it('two concurrent runs of one step run apply it once; another step run applies it again', async () => {
    await contacts.upsert(project, { email: 'bob@example.com', data: { visits: 1 } });
    const t = task('wfr_once_2', 'bob@example.com', { plan: 'pro' });
    const outcomes = await Promise.all([runStep(t), runStep(t)]);
    const duplicates = outcomes.map((o) => (o as { detail?: { duplicate?: boolean } }).detail?.duplicate === true);
    expect(duplicates.sort()).toEqual([false, true]);

    await contacts.upsert(project, { email: 'bob@example.com', data: { plan: 'free' } });
    const next = await runStep(task('wfr_once_3', 'bob@example.com', { plan: 'pro' }));
    expect(next).toMatchObject({ detail: { changedKeys: ['data.plan'] } });
    expect(await dataOf('bob@example.com')).toEqual({ visits: 1, plan: 'pro' });
  });

  it('the key is per project: the same step run id in another project is applied there', async () => {
    const other = `${project}_other`;
    await contacts.upsert(project, { email: 'cy@example.com', data: {} });
    await contacts.upsert(other, { email: 'cy@example.com', data: {} });
    await runStep(task('wfr_shared', 'cy@example.com', { plan: 'pro' }));
    project = other;
    expect(await runStep(task('wfr_shared', 'cy@example.com', { plan: 'pro' }))).toMatchObject({
      detail: { changedKeys: ['data.plan'] },
    });
  });
});
