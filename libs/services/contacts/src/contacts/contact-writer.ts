import { normaliseEmail } from '@herald/contact-data';
import { ContactDeleted, type EventEnvelope } from '@herald/contracts';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import type { CommitOptions, SingleStatementWrite } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import {
  applyContactInput,
  contactEventsOf,
  eventMeta,
  type ContactInput,
  type ContactWrite,
  type WriteContext,
} from './contact-change.js';
import { ContactErrors } from './contact.errors.js';
import type { Contact } from './contact.entity.js';
import { ContactStore } from './contacts.store.js';
import { FieldTypeRecorder } from './field-type-recorder.js';
import { emailsOf, planUpserts, withWriteTime, type UpsertItem } from './upsert-plan.js';

export type { ContactInput, ContactWrite, WriteContext } from './contact-change.js';
export type { UpsertItem } from './upsert-plan.js';

/** `ContactWriter.upsertManyAtomically`'s options: what the statement also writes, and how it commits. */
export interface AtomicUpsertOptions {
  /** Adds to the statement (the /v1/track batch's events and `event.tracked`); returns more events for the outbox. */
  alsoWrite?: (writes: ContactWrite[], write: SingleStatementWrite) => EventEnvelope[];
  commit?: CommitOptions;
}

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
 * the caller's transaction. Its SQL is the ContactStore's; the field types go to the registry
 * through a port (`FieldTypeRecorder`).
 */
@Injectable()
export class ContactWriter {
  constructor(
    @InjectOutbox(CONTACTS) private readonly outbox: Outbox,
    private readonly fields: FieldTypeRecorder,
    // stores hold no state: one built by hand (test/integration does) gets its own
    private readonly store: ContactStore = new ContactStore(),
  ) {}

  /**
   * Creates the contact of `input.email`, or applies `input` to the existing one. `idIfNew` is the id
   * a created contact gets (another service's proposal, checked by the caller's DTO); ignored when the
   * address exists, and replaced by a fresh one if another contact already has it.
   */
  async upsert(m: EntityManager, ctx: WriteContext, input: ContactInput, idIfNew?: string): Promise<ContactWrite> {
    const email = normaliseEmail(input.email);
    let existing = await this.store.lockByEmail(m, ctx.projectId, email);
    if (!existing) {
      const planned = applyContactInput(null, input, { ...ctx, idIfNew, now: new Date() });
      // a taken email (created concurrently) and a taken proposed id both insert nothing
      const inserted = await this.store.insert(m, planned.contact);
      if (inserted) {
        const write = { ...planned, contact: inserted };
        await this.fields.register(m, ctx.projectId, planned.contact.data);
        await this.outbox.add(m, ...contactEventsOf(write, ctx));
        return write;
      }
      existing = await this.store.lockByEmail(m, ctx.projectId, email); // created concurrently: update it instead
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
    const current = await this.store.lockById(m, ctx.projectId, contactId);
    return current ? this.applyChanges(m, ctx, current, input) : null;
  }

  /** Deletes the contact and its timeline, and publishes contact.deleted; false when the project has no such contact. */
  async delete(m: EntityManager, ctx: WriteContext, contactId: string): Promise<boolean> {
    const row = await this.store.delete(m, ctx.projectId, contactId);
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
    const found = await this.store.lockByEmails(m, projectId, emailsOf(items));
    const plan = planUpserts(projectId, items, found, new Date());
    const { inserts, updates } = plan;
    let results = plan.results;
    if (inserts.length > 0 || updates.length > 0) {
      // new and changed contacts in one statement; the rows are locked, so no version check
      const { inserted, at } = await this.store.writeLocked(m, projectId, plan);
      if (inserted < inserts.length) throw new ConcurrentCreate();
      results = withWriteTime(plan, found, at);
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
      const contact = await this.store.lockByEmail(m, projectId, email);
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
   * the locking path. Answers each contact with the database's timestamps, as `upsertMany` does.
   * `commit`: how the statement commits (`SingleStatementWrite.run`).
   */
  async upsertManyAtomically(
    db: DataSource,
    projectId: string,
    items: UpsertItem[],
    { alsoWrite, commit = {} }: AtomicUpsertOptions = {},
  ): Promise<ContactWrite[]> {
    const { found, versions } = await this.store.readUnlocked(db, projectId, emailsOf(items));
    const plan = planUpserts(projectId, items, found, new Date());
    const { inserts, updates } = plan;
    const write = this.store.guardedWrite(db, projectId, plan, versions);
    this.fields.registerIn(
      write,
      projectId,
      [...inserts, ...updates].map((c) => c.data),
    );
    this.outbox.addTo(write, [...plan.events, ...(alsoWrite?.(plan.results, write) ?? [])]);
    // the database's write time (what the rows now hold), as the locking path answers it
    let at: Date | undefined;
    if (inserts.length > 0 || updates.length > 0) write.output('now()', (value) => (at = value as Date));
    await write.run(db, commit);
    return at ? withWriteTime(plan, found, at) : plan.results;
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
    const write = { ...planned, contact: await this.store.update(m, ctx.projectId, planned.contact) };
    if (planned.changedKeys.some((k) => k.startsWith('data.')))
      await this.fields.register(m, ctx.projectId, planned.contact.data);
    await this.outbox.add(m, ...contactEventsOf(write, ctx));
    return write;
  }
}
