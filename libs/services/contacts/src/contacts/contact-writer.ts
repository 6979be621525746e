import { normaliseEmail } from '@herald/contact-data';
import { ContactDeleted, type EventEnvelope } from '@herald/contracts';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { queryPrepared, SingleStatementWrite, SqlParams, tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import { FieldRegistry } from '../fields/field-registry.js';
import { CONTACT_COLUMNS, deletionsSeenSql } from '../fields/live-data.js';
import {
  applyContactInput,
  contactEventsOf,
  eventMeta,
  type ContactInput,
  type ContactWrite,
  type WriteContext,
} from './contact-change.js';
import { insertContactsSql, updateContactsSql, WRITE_GUARD } from './contact-sql.js';
import { contactFromRow } from './contact-view.js';
import { ContactErrors } from './contact.errors.js';
import { Contact } from './contact.entity.js';
import { emailsOf, planUpserts, withWriteTime, type UpsertItem } from './upsert-plan.js';

export type { ContactInput, ContactWrite, WriteContext } from './contact-change.js';
export type { UpsertItem } from './upsert-plan.js';

/** Another writer created a contact of the batch at the same moment (or a proposed id was taken): write the batch item by item. */
export class ConcurrentCreate extends Error {
  constructor() {
    super('a contact of the batch was created concurrently');
  }
}

/**
 * The one write path of contacts: every change (API, /v1/track, import, bulk jobs, /v1/send and
 * workflow UPDATE_CONTACT steps) goes through here and applies the one rule, `applyContactInput`,
 * so the data rules, the field registry and the contact.* events are the same for all. Runs inside
 * the caller's transaction.
 */
@Injectable()
export class ContactWriter {
  constructor(
    @InjectOutbox(CONTACTS) private readonly outbox: Outbox,
    private readonly fields: FieldRegistry,
  ) {}

  /**
   * Creates the contact of `input.email`, or applies `input` to the existing one. `idIfNew` is the id
   * a created contact gets (another service's proposal, checked by the caller's DTO); ignored when the
   * address exists, and replaced by a fresh one if another contact already has it.
   */
  async upsert(m: EntityManager, ctx: WriteContext, input: ContactInput, idIfNew?: string): Promise<ContactWrite> {
    const email = normaliseEmail(input.email);
    const table = tableName(m, Contact);
    let existing = await this.lockByEmail(m, table, ctx.projectId, email);
    if (!existing) {
      const planned = applyContactInput(null, input, { ...ctx, idIfNew, now: new Date() });
      const { id, subscribed, data } = planned.contact;
      // no conflict target: a taken email (created concurrently) and a taken proposed id both insert nothing
      const inserted: Record<string, unknown>[] = await m.query(
        `INSERT INTO ${table} (id, project_id, email, subscribed, data, deletions_applied)
         VALUES ($1, $2, $3, $4, $5::jsonb, ${deletionsSeenSql('$2')})
         ON CONFLICT DO NOTHING RETURNING ${CONTACT_COLUMNS}`,
        [id, ctx.projectId, email, subscribed, JSON.stringify(data)],
      );
      if (inserted[0]) {
        const write = { ...planned, contact: contactFromRow(inserted[0]) };
        await this.fields.register(m, ctx.projectId, data);
        await this.outbox.add(m, ...contactEventsOf(write, ctx));
        return write;
      }
      existing = await this.lockByEmail(m, table, ctx.projectId, email); // created concurrently: update it instead
      if (!existing) return this.upsert(m, ctx, input); // the proposed id was another contact's
    }
    return this.applyChanges(m, ctx, existing, input);
  }

  /** PATCH semantics on a known contact; `email` may change (CONTACT_EMAIL_TAKEN when taken, CONTACT_NOT_FOUND). */
  async update(
    m: EntityManager,
    ctx: WriteContext,
    contactId: string,
    input: Partial<ContactInput>,
  ): Promise<ContactWrite> {
    const write = await this.updateIfExists(m, ctx, contactId, input);
    if (!write) throw ContactErrors.notFound(contactId);
    return write;
  }

  /** `update`, or null when the project has no such contact (a bulk job's expected outcome, not an error). */
  async updateIfExists(
    m: EntityManager,
    ctx: WriteContext,
    contactId: string,
    input: Partial<ContactInput>,
  ): Promise<ContactWrite | null> {
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${tableName(m, Contact)} WHERE project_id = $1 AND id = $2 FOR UPDATE`,
      [ctx.projectId, contactId],
    );
    return rows[0] ? this.applyChanges(m, ctx, contactFromRow(rows[0]), input) : null;
  }

  async delete(m: EntityManager, ctx: WriteContext, contactId: string): Promise<boolean> {
    const [rows] = (await m.query(
      `DELETE FROM ${tableName(m, Contact)} WHERE project_id = $1 AND id = $2 RETURNING id, email`,
      [ctx.projectId, contactId],
    )) as [{ id: string; email: string }[], number];
    const row = rows[0];
    if (!row) return false;
    await this.outbox.add(
      m,
      ContactDeleted.create({ ...eventMeta(ctx), payload: { contactId: row.id, email: row.email } }),
    );
    return true;
  }

  /**
   * Many upserts of one project in a few statements (CSV batches, and /v1/track batches that
   * `upsertManyAtomically` could not write, and the recipients of a /v1/send): each item is
   * applied in order with exactly the semantics of `upsert` (`planUpserts`), its own subscription
   * default, reason and proposed id, and gets its own result, with the database's timestamps; the
   * events come out in the same order as if the items had been written one by one. Locks the
   * contacts it reads. Throws `ConcurrentCreate` when another writer created one of the new
   * contacts meanwhile, or a proposed id was taken: the caller then writes the items one by one
   * (`upsertInTurn`). `alsoPublish` gives events of the caller's own write that depend on the
   * results (the batch's `event.tracked`): they go into the outbox after the contact events, in the
   * same insert. Four statements whatever the number of items (lock, write, field registry, outbox).
   */
  async upsertMany(
    m: EntityManager,
    projectId: string,
    items: UpsertItem[],
    alsoPublish?: (writes: ContactWrite[]) => EventEnvelope[],
  ): Promise<ContactWrite[]> {
    const table = tableName(m, Contact);
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${table} WHERE project_id = $1 AND email = ANY($2::varchar[]) ORDER BY email FOR UPDATE`,
      [projectId, emailsOf(items)],
    );
    const found = rows.map(contactFromRow);
    const plan = planUpserts(projectId, items, found, new Date());
    const { inserts, updates } = plan;
    let results = plan.results;
    if (inserts.length > 0 || updates.length > 0) {
      // new and changed contacts in one statement (they are different rows); the rows are locked, so no version check
      const { param, values } = new SqlParams();
      const project = param(projectId, 'varchar');
      const [counts] = (await m.query(
        `WITH ins AS (${insertContactsSql(table, project, param, inserts)}),
              upd AS (${updateContactsSql(table, project, param, updates)})
         SELECT (SELECT count(*) FROM ins)::int AS inserted, now() AS at`,
        values,
      )) as { inserted: number; at: Date }[];
      if (counts!.inserted < inserts.length) throw new ConcurrentCreate();
      results = withWriteTime(plan, found, counts!.at);
    }
    await this.fields.registerMany(
      m,
      projectId,
      [...inserts, ...updates].map((c) => c.data),
    );
    await this.outbox.add(m, ...plan.events, ...(alsoPublish?.(results) ?? []));
    return results;
  }

  /**
   * `upsertMany` item by item, in the caller's transaction: `upsert` for each, and for a `repeat`
   * the contact as the items before it left it (CONTACT_NOT_FOUND when there is none).
   */
  async upsertInTurn(m: EntityManager, projectId: string, items: UpsertItem[]): Promise<ContactWrite[]> {
    const writes: ContactWrite[] = [];
    for (const { input, ctx, idIfNew, repeat } of items) {
      if (!repeat) {
        writes.push(await this.upsert(m, ctx, input, idIfNew));
        continue;
      }
      const email = normaliseEmail(input.email);
      const contact = await this.lockByEmail(m, tableName(m, Contact), projectId, email);
      if (!contact) throw ContactErrors.notFound(email);
      writes.push({ contact, created: false, changedKeys: [], transient: {} });
    }
    return writes;
  }

  /**
   * `upsertMany` in two round trips and no lock (the /v1/track path): reads the contacts, applies
   * the items to them, and writes everything — new and changed contacts, field registry, outbox,
   * and what `alsoWrite` adds to the statement (the batch's tracked events and `event.tracked`) —
   * as one statement that only commits if the rows it was computed from are as they were read:
   * every new contact still new, every changed one not written since (its `xmin`), every other one
   * still there. Otherwise nothing is written and it throws `WriteConflict`; the caller then takes
   * the locking path.
   */
  async upsertManyAtomically(
    db: DataSource,
    projectId: string,
    items: UpsertItem[],
    alsoWrite?: (writes: ContactWrite[], write: SingleStatementWrite) => EventEnvelope[],
  ): Promise<ContactWrite[]> {
    const table = tableName(db, Contact);
    // named columns, not *: a prepared statement whose result columns change under it (a migration adding one) fails until reconnect
    const rows = await queryPrepared(
      db,
      `SELECT ${CONTACT_COLUMNS}, xmin::text AS row_version FROM ${table} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, emailsOf(items)],
    );
    const versions = new Map(rows.map((r) => [r.id as string, r.row_version as string]));
    const plan = planUpserts(projectId, items, rows.map(contactFromRow), new Date());
    const write = new SingleStatementWrite(WRITE_GUARD);
    const { param } = write;
    const project = param(projectId, 'varchar');
    const { inserts, updates, unchanged } = plan;
    if (inserts.length > 0) {
      const created = write.with('created', insertContactsSql(table, project, param, inserts));
      write.guard(`(SELECT count(*) FROM ${created}) = ${param(inserts.length, 'int')}`);
    }
    if (updates.length > 0) {
      const changed = write.with('changed', updateContactsSql(table, project, param, updates, versions));
      write.guard(`(SELECT count(*) FROM ${changed}) = ${param(updates.length, 'int')}`);
    }
    if (unchanged.length > 0) {
      // still there when the statement commits (a delete waits for this lock, or happened before and the guard fails)
      const kept = write.with(
        'kept',
        `SELECT 1 FROM ${table} WHERE project_id = ${project} AND id = ANY(${param(
          unchanged.map((c) => c.id),
          'varchar[]',
        )}) FOR KEY SHARE`,
      );
      write.guard(`(SELECT count(*) FROM ${kept}) = ${param(unchanged.length, 'int')}`);
    }
    this.fields.registerIn(
      write,
      projectId,
      [...inserts, ...updates].map((c) => c.data),
    );
    this.outbox.addTo(write, [...plan.events, ...(alsoWrite?.(plan.results, write) ?? [])]);
    await write.run(db);
    return plan.results;
  }

  /**
   * The CSV path: rows of one import batch through `upsertMany` (new contacts subscribed as
   * `ctx.subscribedIfNew`, existing ones patched). Returns how many contacts were created and how
   * many existing contacts the rows matched.
   */
  async upsertBatch(
    m: EntityManager,
    ctx: WriteContext,
    rows: { email: string; data: Record<string, unknown> }[],
  ): Promise<{ created: number; updated: number }> {
    const writes = await this.upsertMany(
      m,
      ctx.projectId,
      rows.map((r) => ({ input: { email: r.email, data: r.data }, ctx })),
    );
    const created = new Set(writes.filter((w) => w.created).map((w) => w.contact.id));
    const matched = new Set(writes.filter((w) => !created.has(w.contact.id)).map((w) => w.contact.id));
    return { created: created.size, updated: matched.size };
  }

  private async applyChanges(
    m: EntityManager,
    ctx: WriteContext,
    current: Contact,
    input: Partial<ContactInput>,
  ): Promise<ContactWrite> {
    const planned = applyContactInput(current, input, { ...ctx, now: new Date() });
    if (planned.changedKeys.length === 0) return planned;
    const { email, subscribed, data } = planned.contact;
    let rows: Record<string, unknown>[];
    try {
      [rows] = (await m.query(
        `UPDATE ${tableName(m, Contact)} SET email = $3, subscribed = $4, data = $5::jsonb, deletions_applied = $6, updated_at = now()
          WHERE project_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`,
        [ctx.projectId, current.id, email, subscribed, JSON.stringify(data), current.deletionsApplied],
      )) as [Record<string, unknown>[], number];
    } catch (err) {
      if ((err as { driverError?: { code?: string } }).driverError?.code === '23505')
        throw ContactErrors.emailTaken(email);
      throw err;
    }
    const write = { ...planned, contact: contactFromRow(rows[0]!) };
    if (planned.changedKeys.some((k) => k.startsWith('data.'))) await this.fields.register(m, ctx.projectId, data);
    await this.outbox.add(m, ...contactEventsOf(write, ctx));
    return write;
  }

  private async lockByEmail(
    m: EntityManager,
    table: string,
    projectId: string,
    email: string,
  ): Promise<Contact | undefined> {
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${table} WHERE project_id = $1 AND email = $2 FOR UPDATE`,
      [projectId, email],
    );
    return rows[0] ? contactFromRow(rows[0]) : undefined;
  }
}
