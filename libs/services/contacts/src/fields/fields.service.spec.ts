import { jest } from '@jest/globals';
import { PageQueryDto } from '@herald/http';
import type { JobQueue } from '@herald/jobs';
import type { ReferenceDirectory } from '@herald/messaging';
import type { DataSource, EntityManager } from 'typeorm';
import type { FieldRegistry } from './field-registry.js';
import { DELETE_FIELD_QUEUE, FieldsService } from './fields.service.js';
import type { FieldsStore } from './fields.store.js';

const m = {} as EntityManager;

/** A FieldsService over a store of mocks, a data source whose transactions run at once, a job queue and a registry recorded. */
function serviceWith(store: Record<string, unknown>) {
  const db = { transaction: jest.fn(async (fn: (m: EntityManager) => unknown) => fn(m)) };
  const jobs = { enqueue: jest.fn(async () => 'job_1') };
  const registry = { forget: jest.fn() };
  const service = new FieldsService(
    db as unknown as DataSource,
    jobs as unknown as JobQueue,
    registry as unknown as FieldRegistry,
    {} as ReferenceDirectory,
    store as unknown as FieldsStore,
  );
  return { service, db, jobs, registry };
}

describe('FieldsService: the field registry API over its store', () => {
  it('lists the standard fields, then the custom ones with their coverage, each counted past the deletion covering it', async () => {
    const coverage = jest.fn(async () => ({ total: 3, counts: [2, 1] }));
    const { service } = serviceWith({
      custom: async () => [
        { path: 'data.plan', type: 'string' },
        { path: 'data.profile.tier', type: 'string' },
      ],
      tombstones: async () => [{ path: 'data.profile', seq: '7' }],
      coverage,
    });
    const { fields } = await service.list('prj_1');
    expect(coverage).toHaveBeenCalledWith(expect.anything(), 'prj_1', [
      { path: 'data.plan', deletedAt: undefined },
      { path: 'data.profile.tier', deletedAt: '7' },
    ]);
    expect(fields.map((f) => [f.field, f.isCustom, f.coverage])).toEqual([
      ['email', false, 1],
      ['subscribed', false, 1],
      ['createdAt', false, 1],
      ['updatedAt', false, 1],
      ['data.plan', true, 0.6667],
      ['data.profile.tier', true, 0.3333],
    ]);
  });

  it('a project without contacts covers no field', async () => {
    const { service } = serviceWith({
      custom: async () => [{ path: 'data.plan', type: 'string' }],
      tombstones: async () => [],
      coverage: async () => ({ total: 0, counts: [0] }),
    });
    expect((await service.list('prj_1')).fields.map((f) => f.coverage)).toEqual([0, 0, 0, 0, 0]);
  });

  it('the values of a field not registered are FIELD_NOT_FOUND; of one registered, counted past its deletion', async () => {
    const values = jest.fn(async () => ({ rows: [{ value: 'pro', count: 2 }], total: 1 }));
    const { service } = serviceWith({
      isRegistered: async (_db: unknown, _p: string, path: string) => path === 'data.plan',
      tombstones: async () => [{ path: 'data.plan', seq: '3' }],
      values,
    });
    await expect(service.values('prj_1', 'data.city', new PageQueryDto())).rejects.toMatchObject({
      code: 'FIELD_NOT_FOUND',
    });
    const q = Object.assign(new PageQueryDto(), { page: 2, pageSize: 10 });
    expect(await service.values('prj_1', 'data.plan', q)).toMatchObject({
      data: [{ value: 'pro', count: 2 }],
      total: 1,
    });
    expect(values).toHaveBeenCalledWith(expect.anything(), 'prj_1', { path: 'data.plan', deletedAt: '3' }, 10, 10);
  });

  it('refuses to delete a standard field before touching anything', async () => {
    const { service, db } = serviceWith({});
    await expect(service.delete('prj_1', 'email')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(db.transaction).not.toHaveBeenCalled();
  });

  it('deleting a field not registered is FIELD_NOT_FOUND: nothing forgotten, no job', async () => {
    const { service, jobs, registry } = serviceWith({ unregister: async () => undefined });
    await expect(service.delete('prj_1', 'data.plan')).rejects.toMatchObject({ code: 'FIELD_NOT_FOUND' });
    expect(registry.forget).not.toHaveBeenCalled();
    expect(jobs.enqueue).not.toHaveBeenCalled();
  });

  it("deleting a field forgets it in the registry and queues its job with the tombstone's seq, in the same transaction", async () => {
    const unregister = jest.fn(async () => '12');
    const { service, jobs, registry } = serviceWith({ unregister });
    expect(await service.delete('prj_1', 'data.plan')).toEqual({ jobId: 'job_1', status: 'queued' });
    expect(unregister).toHaveBeenCalledWith(m, 'prj_1', 'data.plan');
    expect(registry.forget).toHaveBeenCalledWith('prj_1', 'data.plan');
    expect(jobs.enqueue).toHaveBeenCalledWith(m, DELETE_FIELD_QUEUE, {
      projectId: 'prj_1',
      field: 'data.plan',
      seq: '12',
    });
  });
});
