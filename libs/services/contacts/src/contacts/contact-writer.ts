import { normaliseEmail, upsertOutcome, type UpsertOutcome } from '@herald/contact-data';
import {
  ContactCreated,
  ContactDeleted,
  ContactSubscribed,
  ContactUnsubscribed,
  ContactUpdated,
  type EventEnvelope,
  type SubscriptionChangeReason,
} from '@herald/contracts';
import { newId } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import {
  jsonParam,
  queryPrepared,
  SingleStatementWrite,
  SqlParams,
  tableName,
  type SqlParam,
} from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import { FieldRegistry } from '../fields/field-registry.js';
import { CONTACT_COLUMNS, deletionsSeenSql } from '../fields/live-data.js';
import { contactFromRow } from './contact-view.js';
import { ContactErrors } from './contact.errors.js';
import { Contact } from './contact.entity.js';

/** Another writer created a contact of the batch at the same moment: write the batch item by item. */
export class ConcurrentCreate extends Error {
  constructor() {
    super('a contact of the batch was created concurrently');
  }
}

export interface ContactInput {
  email: string;
  /** Set the subscription; absent keeps an existing contact's state. */
  subscribed?: boolean;
  data?: Record<string, unknown>;
}

export interface WriteContext {
  projectId: string;
  /** Subscription of a contact created by this write when `subscribed` is absent. */
  subscribedIfNew: boolean;
  /** What caused it: carried by subscription events (the contact's timeline shows it). */
  reason: SubscriptionChangeReason;
  correlationId?: string;
  /** The email (and its campaign) whose link caused a subscription change: carried by its event. */
  via?: { emailId?: string; campaignId?: string };
}

interface UpsertPlan {
  results: ContactWrite[];
  /** Contact events of the items, in order. */
  events: EventEnvelope[];
  /** New contacts, by email. */
  inserts: Contact[];
  /** Existing contacts the items changed (their new state). */
  updates: Contact[];
  /** Existing contacts the items matched without changing them. */
  unchanged: Contact[];
}

/** The schema's guard of single-statement writes (migration WriteGuard1795300761154). */
const WRITE_GUARD = '"contacts"."write_guard"';

/** Distinct normalised emails of `items`, sorted (the order rows are locked in). */
const emailsOf = (items: { input: ContactInput }[]): string[] =>
  [...new Set(items.map((i) => normaliseEmail(i.input.email)))].sort();

/**
 * New contacts, one row each (an email already taken is skipped: compare the RETURNING rows with
 * `contacts`); their data is all new, so every field deletion so far counts as applied.
 */
function insertContactsSql(table: string, project: string, param: SqlParam, contacts: Contact[]): string {
  const rows = contacts.map((c) => ({ id: c.id, email: c.email, subscribed: c.subscribed, data: c.data }));
  return `INSERT INTO ${table} (id, project_id, email, subscribed, data, deletions_applied)
    SELECT id, ${project}, email, subscribed, data, ${deletionsSeenSql(project)}
      FROM jsonb_to_recordset(${jsonParam(param, rows)}) AS x(id varchar, email varchar, subscribed boolean, data jsonb)
    ON CONFLICT (project_id, email) DO NOTHING RETURNING 1`;
}

/** Subscription and data of existing contacts; with `versions` (id → `xmin` as read), only the rows not written since. */
function updateContactsSql(
  table: string,
  project: string,
  param: SqlParam,
  contacts: Contact[],
  versions?: Map<string, string>,
): string {
  const rows = contacts.map((c) => ({
    id: c.id,
    subscribed: c.subscribed,
    data: c.data,
    deletions: c.deletionsApplied,
    ...(versions ? { version: versions.get(c.id) } : {}),
  }));
  return `UPDATE ${table} AS c SET subscribed = u.subscribed, data = u.data, deletions_applied = u.deletions, updated_at = now()
      FROM jsonb_to_recordset(${jsonParam(param, rows)}) AS u(id varchar, subscribed boolean, data jsonb, deletions bigint${versions ? ', version xid' : ''})
     WHERE c.project_id = ${project} AND c.id = u.id${versions ? ' AND c.xmin = u.version' : ''} RETURNING 1`;
}

export interface ContactWrite {
  contact: Contact;
  created: boolean;
  /** `email`, `subscribed`, `data.<key>` that changed. */
  changedKeys: string[];
  /** Non-persistent values of this request, for rendering. */
  transient: Record<string, unknown>;
}

/**
 * The one write path of contacts: every change (API, /v1/track, import, bulk jobs, /v1/send and
 * workflow UPDATE_CONTACT steps) goes through here, so the data rules, the field registry and the
 * contact.* events are the same for all. Runs inside the caller's transaction.
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
      const outcome = this.storable(upsertOutcome(undefined, input, ctx.subscribedIfNew));
      const { subscribed } = outcome;
      // no conflict target: a taken email (created concurrently) and a taken proposed id both insert nothing
      const inserted: Record<string, unknown>[] = await m.query(
        `INSERT INTO ${table} (id, project_id, email, subscribed, data, deletions_applied)
         VALUES ($1, $2, $3, $4, $5::jsonb, ${deletionsSeenSql('$2')})
         ON CONFLICT DO NOTHING RETURNING ${CONTACT_COLUMNS}`,
        [idIfNew ?? newId('cnt'), ctx.projectId, email, subscribed, JSON.stringify(outcome.data)],
      );
      if (inserted[0]) {
        const contact = contactFromRow(inserted[0]);
        await this.fields.register(m, ctx.projectId, outcome.data);
        await this.outbox.add(
          m,
          ContactCreated.create({
            ...this.meta(ctx),
            payload: { contactId: contact.id, email, subscribed, data: contact.data },
          }),
        );
        return { contact, created: true, changedKeys: [], transient: outcome.transient };
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
      ContactDeleted.create({ ...this.meta(ctx), payload: { contactId: row.id, email: row.email } }),
    );
    return true;
  }

  /**
   * Many upserts of one project in a few statements (CSV batches, and /v1/track batches that
   * `upsertManyAtomically` could not write): each item is applied in order with exactly the
   * semantics of `upsert`, its own subscription default and reason, and gets its own result; the
   * events come out in the same order as if the items had been written one by one. Locks the
   * contacts it reads. Throws `ConcurrentCreate` when another writer created one of the new
   * contacts meanwhile: the caller then writes the items one by one. `alsoPublish` gives events of
   * the caller's own write that depend on the results (the batch's `event.tracked`): they go into
   * the outbox after the contact events, in the same insert.
   */
  async upsertMany(
    m: EntityManager,
    projectId: string,
    items: { input: ContactInput; ctx: WriteContext }[],
    alsoPublish?: (writes: ContactWrite[]) => EventEnvelope[],
  ): Promise<ContactWrite[]> {
    const table = tableName(m, Contact);
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${table} WHERE project_id = $1 AND email = ANY($2::varchar[]) ORDER BY email FOR UPDATE`,
      [projectId, emailsOf(items)],
    );
    const plan = this.plan(projectId, items, rows.map(contactFromRow));
    const { inserts, updates } = plan;
    if (inserts.length > 0 || updates.length > 0) {
      // new and changed contacts in one statement (they are different rows); the rows are locked, so no version check
      const { param, values } = new SqlParams();
      const project = param(projectId, 'varchar');
      const [counts] = (await m.query(
        `WITH ins AS (${insertContactsSql(table, project, param, inserts)}),
              upd AS (${updateContactsSql(table, project, param, updates)})
         SELECT (SELECT count(*) FROM ins)::int AS inserted`,
        values,
      )) as { inserted: number }[];
      if (counts!.inserted < inserts.length) throw new ConcurrentCreate();
    }
    await this.fields.registerMany(
      m,
      projectId,
      [...inserts, ...updates].map((c) => c.data),
    );
    await this.outbox.add(m, ...plan.events, ...(alsoPublish?.(plan.results) ?? []));
    return plan.results;
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
    items: { input: ContactInput; ctx: WriteContext }[],
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
    const plan = this.plan(projectId, items, rows.map(contactFromRow));
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

  /** Applies `items` in order to the contacts read (`found`): the results, the rows to insert and update, and the contact events. */
  private plan(projectId: string, items: { input: ContactInput; ctx: WriteContext }[], found: Contact[]): UpsertPlan {
    const current = new Map(found.map((c) => [c.email, c]));
    const created = new Set<string>();
    const touched = new Set<string>();
    const events: EventEnvelope[] = [];
    const results: ContactWrite[] = [];
    const now = new Date();
    for (const { input, ctx } of items) {
      const email = normaliseEmail(input.email);
      const before = current.get(email);
      if (!before) {
        const outcome = this.storable(upsertOutcome(undefined, input, ctx.subscribedIfNew));
        const { subscribed } = outcome;
        const contact = {
          id: newId('cnt'),
          projectId,
          email,
          subscribed,
          data: outcome.data,
          createdAt: now,
          updatedAt: now,
        } as Contact;
        current.set(email, contact);
        created.add(email);
        events.push(
          ContactCreated.create({
            ...this.meta(ctx),
            payload: { contactId: contact.id, email, subscribed, data: contact.data },
          }),
        );
        results.push({ contact, created: true, changedKeys: [], transient: outcome.transient });
        continue;
      }
      const { subscribed, data, changedKeys, transient } = this.storable(
        upsertOutcome(before, input, ctx.subscribedIfNew),
      );
      if (changedKeys.length === 0) {
        results.push({ contact: before, created: false, changedKeys, transient });
        continue;
      }
      const contact = { ...before, subscribed, data, updatedAt: now } as Contact;
      current.set(email, contact);
      touched.add(email);
      events.push(
        ContactUpdated.create({
          ...this.meta(ctx),
          payload: { contactId: contact.id, email, subscribed, data: contact.data, changedKeys },
        }),
      );
      if (subscribed !== before.subscribed) {
        const contract = subscribed ? ContactSubscribed : ContactUnsubscribed;
        events.push(
          contract.create({
            ...this.meta(ctx),
            payload: { contactId: contact.id, email, reason: ctx.reason, ...ctx.via },
          }),
        );
      }
      results.push({ contact, created: false, changedKeys, transient });
    }
    return {
      results,
      events,
      // by email, as the locking path locks them: two writes over the same contacts take their row locks in one order
      inserts: [...created].sort().map((e) => current.get(e)!),
      updates: [...touched]
        .filter((e) => !created.has(e))
        .sort()
        .map((e) => current.get(e)!),
      unchanged: found.filter((c) => !touched.has(c.email)),
    };
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
    const outcome = this.storable(upsertOutcome(current, input, ctx.subscribedIfNew));
    const { subscribed, transient } = outcome;
    const email = input.email !== undefined ? normaliseEmail(input.email) : current.email;
    const changedKeys = [...(email !== current.email ? ['email'] : []), ...outcome.changedKeys];
    if (changedKeys.length === 0) return { contact: current, created: false, changedKeys, transient };

    let rows: Record<string, unknown>[];
    try {
      [rows] = (await m.query(
        `UPDATE ${tableName(m, Contact)} SET email = $3, subscribed = $4, data = $5::jsonb, deletions_applied = $6, updated_at = now()
          WHERE project_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`,
        [ctx.projectId, current.id, email, subscribed, JSON.stringify(outcome.data), current.deletionsApplied],
      )) as [Record<string, unknown>[], number];
    } catch (err) {
      if ((err as { driverError?: { code?: string } }).driverError?.code === '23505')
        throw ContactErrors.emailTaken(email);
      throw err;
    }
    const contact = contactFromRow(rows[0]!);
    if (outcome.changedKeys.some((k) => k.startsWith('data.')))
      await this.fields.register(m, ctx.projectId, outcome.data);
    const events: EventEnvelope[] = [
      ContactUpdated.create({
        ...this.meta(ctx),
        payload: { contactId: contact.id, email, subscribed, data: contact.data, changedKeys },
      }),
    ];
    if (subscribed !== current.subscribed) {
      const contract = subscribed ? ContactSubscribed : ContactUnsubscribed;
      events.push(
        contract.create({
          ...this.meta(ctx),
          payload: { contactId: contact.id, email, reason: ctx.reason, ...ctx.via },
        }),
      );
    }
    await this.outbox.add(m, ...events);
    return { contact, created: false, changedKeys, transient };
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

  /** The data limits (docs/contacts.md) on what would be stored, whichever path wrote it (workflows, CSV, internal calls). */
  private storable(outcome: UpsertOutcome): UpsertOutcome {
    if (outcome.problem) throw ContactErrors.invalidData(outcome.problem);
    return outcome;
  }

  private meta(ctx: WriteContext) {
    return {
      projectId: ctx.projectId,
      source: CONTACTS,
      ...(ctx.correlationId ? { correlationId: ctx.correlationId } : {}),
    };
  }
}
