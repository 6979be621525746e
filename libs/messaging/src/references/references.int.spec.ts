import { ResourceReferencesChanged, type EventEnvelope } from '@herald/contracts';
import { configureLogging, CoreModule, type HeraldRuntime } from '@herald/core';
import { createHttpApp } from '@herald/http';
import { PersistenceModule } from '@herald/persistence';
import { createTestDatabase, eventually, TEST_INTERNAL_SECRET, type TestDatabase } from '@herald/testing';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { messagingEntities } from '../entities/index.js';
import { InProcessBus } from '../in-process/in-process-bus.js';
import { InProcessEventServer } from '../in-process/in-process-event.server.js';
import { ConsumerRegistry } from '../consumer/consumer-registry.js';
import { MessagingModule, outboxToken } from '../messaging.module.js';
import type { Outbox } from '../outbox/outbox.js';
import { publishReferences, type ReferringResource } from './publish-references.js';
import { referenceDirectoryToken, ReferencesModule, type ReferenceDirectory } from './references.module.js';
import { ResourceReferences } from './resource-references.entity.js';

const OWNER = 'refowner';
const PRODUCER = 'refproducer';
const PROJECT = 'prj_refs000000001';
const OTHER_PROJECT = 'prj_refs000000002';

/**
 * Usage lookups across services: a test producer (standing in for segments, campaigns, workflows)
 * publishes a resource's references through its outbox; the owner (standing in for contacts or
 * sending) keeps them through ReferencesModule and answers usage from them. Both run as services of
 * one process on the in-process bus, through the same outbox, relay, inbox and handler registration
 * as either mode (Kafka only replaces the transport).
 */
describe('resource references: published by the referring service, kept by the owner (PostgreSQL)', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let owner: DataSource;
  let producer: DataSource;
  let directory: ReferenceDirectory;

  beforeAll(async () => {
    configureLogging(process.env.HERALD_TEST_LOG_LEVEL ?? 'silent');
    db = await createTestDatabase();
    const runtime: HeraldRuntime = {
      mode: 'standalone',
      databaseUrl: db.url,
      databasePoolSize: 2,
      internalJwtSecret: TEST_INTERNAL_SECRET,
      jobLeaseMs: 30_000,
    };
    const noMigrations = { migrations: [], migrateOnStart: () => false };
    @Module({
      imports: [
        PersistenceModule.forService({
          service: OWNER,
          entities: [ResourceReferences, ...messagingEntities],
          ...noMigrations,
        }),
        MessagingModule.forService({ service: OWNER }),
        ReferencesModule.forOwner(OWNER, { kinds: ['field', 'event'] }),
      ],
    })
    class OwnerModule {}
    @Module({
      imports: [
        PersistenceModule.forService({ service: PRODUCER, entities: [...messagingEntities], ...noMigrations }),
        MessagingModule.forService({ service: PRODUCER }),
      ],
    })
    class ProducerModule {}
    @Module({ imports: [CoreModule.forRoot(runtime), MessagingModule.forRoot(), OwnerModule, ProducerModule] })
    class TestRoot {}

    app = await createHttpApp(TestRoot);
    owner = app.get<DataSource>(getDataSourceToken(OWNER));
    producer = app.get<DataSource>(getDataSourceToken(PRODUCER));
    for (const [name, ds] of [
      [OWNER, owner],
      [PRODUCER, producer],
    ] as const) {
      await ds.query(`CREATE SCHEMA ${name}`);
      await ds.synchronize();
    }
    await owner.query(
      `CREATE INDEX resource_references_refs_idx ON ${OWNER}.resource_references USING gin (refs jsonb_path_ops)`,
    );
    app.connectMicroservice(
      { strategy: new InProcessEventServer(app.get(ConsumerRegistry), app.get(InProcessBus)) },
      { inheritAppConfig: true },
    );
    await app.startAllMicroservices();
    await app.init();
    directory = app.get<ReferenceDirectory>(referenceDirectoryToken(OWNER));
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const segment = (revision: number, name = 'Pro users', projectId = PROJECT): ReferringResource => ({
    projectId,
    kind: 'segment',
    id: 'seg_1',
    name,
    revision,
  });

  /** Commits the envelope through the producer's outbox and waits until the owner's consumer applied it (its inbox row). */
  async function deliver(write: (outbox: Outbox, m: import('typeorm').EntityManager) => Promise<EventEnvelope>) {
    const outbox = app.get<Outbox>(outboxToken(PRODUCER));
    const event = await producer.transaction((m) => write(outbox, m));
    await eventually(
      async () =>
        ((await owner.query(`SELECT 1 FROM ${OWNER}.inbox WHERE event_id = $1`, [event.eventId])) as unknown[]).length >
        0,
      { timeoutMs: 10_000, intervalMs: 20, message: `the owner never applied ${event.eventId}` },
    );
    return event;
  }

  it("answers who references a field or an event from what the producers published, keeping only the owner's kinds", async () => {
    await deliver((outbox, m) =>
      publishReferences(outbox, m, PRODUCER, segment(1), [
        { kind: 'field', key: 'data.plan' },
        { kind: 'event', key: 'signed-up' },
        { kind: 'template', key: 'tpl_1' },
      ]),
    );
    await deliver((outbox, m) =>
      publishReferences(
        outbox,
        m,
        PRODUCER,
        { projectId: PROJECT, kind: 'workflow', id: 'wf_1', name: 'Onboarding', revision: 1 },
        [{ kind: 'event', key: 'signed-up', at: 'step_trigger' }],
      ),
    );

    expect(await directory.usage(PROJECT, 'field', 'data.plan')).toEqual({
      segments: [{ id: 'seg_1', name: 'Pro users' }],
      campaigns: [],
      workflows: [],
    });
    expect(await directory.usage(PROJECT, 'event', 'signed-up')).toEqual({
      segments: [{ id: 'seg_1', name: 'Pro users' }],
      campaigns: [],
      workflows: [{ id: 'wf_1', name: 'Onboarding', at: 'step_trigger' }],
    });
    expect(await directory.usage(PROJECT, 'template', 'tpl_1')).toEqual({ segments: [], campaigns: [], workflows: [] });
    expect(await directory.usage(OTHER_PROJECT, 'field', 'data.plan')).toEqual({
      segments: [],
      campaigns: [],
      workflows: [],
    });
  });

  it('keeps the newest revision of a resource whatever the delivery order, and forgets a deleted one', async () => {
    await deliver((outbox, m) =>
      publishReferences(outbox, m, PRODUCER, segment(5, 'Renamed'), [{ kind: 'field', key: 'data.tier' }]),
    );
    expect((await directory.usage(PROJECT, 'field', 'data.plan')).segments).toEqual([]);
    expect((await directory.usage(PROJECT, 'field', 'data.tier')).segments).toEqual([{ id: 'seg_1', name: 'Renamed' }]);

    // an older revision arriving late (a retry, another partition's lag) changes nothing
    await deliver((outbox, m) =>
      publishReferences(outbox, m, PRODUCER, segment(4, 'Stale'), [{ kind: 'field', key: 'data.plan' }]),
    );
    expect((await directory.usage(PROJECT, 'field', 'data.plan')).segments).toEqual([]);
    expect((await directory.usage(PROJECT, 'field', 'data.tier')).segments).toEqual([{ id: 'seg_1', name: 'Renamed' }]);

    // deleted: an empty list; an older revision delivered after it does not bring the resource back
    await deliver((outbox, m) => publishReferences(outbox, m, PRODUCER, segment(6), []));
    await deliver((outbox, m) =>
      publishReferences(outbox, m, PRODUCER, segment(5, 'Renamed'), [{ kind: 'field', key: 'data.tier' }]),
    );
    expect((await directory.usage(PROJECT, 'field', 'data.tier')).segments).toEqual([]);
  });

  it('ignores a revision it already has, and never receives the references of a rolled-back change', async () => {
    await deliver((outbox, m) =>
      publishReferences(outbox, m, PRODUCER, { ...segment(1), id: 'seg_2', name: 'Kept' }, [
        { kind: 'field', key: 'data.x' },
      ]),
    );
    // the same revision published again with other content (a producer's retry): the first one stands
    await deliver((outbox, m) =>
      publishReferences(outbox, m, PRODUCER, { ...segment(1), id: 'seg_2', name: 'Repeated' }, [
        { kind: 'field', key: 'data.y' },
      ]),
    );
    await producer
      .transaction(async (m) => {
        await publishReferences(
          app.get<Outbox>(outboxToken(PRODUCER)),
          m,
          PRODUCER,
          { projectId: PROJECT, kind: 'campaign', id: 'cmp_1', name: 'Never', revision: 1 },
          [{ kind: 'field', key: 'data.x' }],
        );
        throw new Error('the campaign write failed');
      })
      .catch(() => undefined);
    // a later change committed after both: once it is applied, anything committed before it was too
    await deliver((outbox, m) =>
      publishReferences(outbox, m, PRODUCER, { ...segment(1), id: 'seg_3', name: 'Marker' }, []),
    );
    expect(await directory.usage(PROJECT, 'field', 'data.x')).toEqual({
      segments: [{ id: 'seg_2', name: 'Kept' }],
      campaigns: [],
      workflows: [],
    });
    expect((await directory.usage(PROJECT, 'field', 'data.y')).segments).toEqual([]);
  });

  it('refuses references that break the contract', () => {
    expect(() =>
      ResourceReferencesChanged.create({
        projectId: PROJECT,
        source: PRODUCER,
        payload: {
          resourceKind: 'segment',
          resourceId: 'seg_9',
          resourceName: 'Bad',
          revision: 1,
          references: [{ kind: 'contact' as 'field', key: 'x' }],
        },
      }),
    ).toThrow(/reference/);
  });
});
