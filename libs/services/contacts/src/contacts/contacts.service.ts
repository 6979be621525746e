import { normaliseEmail } from '@herald/contact-data';
import type { SubscriptionChangeReason } from '@herald/contracts';
import { keysetPage, type CursorPage } from '@herald/http';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import { TrackedEvent } from '../events/tracked-event.entity.js';
import type { ListContactsQueryDto, UpdateContactDto, UpsertContactDto } from './contact.dto.js';
import { contactFromRow, contactView, type ContactView } from './contact-view.js';
import { ContactSearchEntry } from './contact-search.entity.js';
import { ContactUpdateKey } from './contact-update-key.entity.js';
import {
  ConcurrentCreate,
  ContactWriter,
  type ContactWrite,
  type UpsertItem,
  type WriteContext,
} from './contact-writer.js';
import { ContactErrors } from './contact.errors.js';
import { Contact } from './contact.entity.js';
import { CONTACT_COLUMNS } from '../fields/live-data.js';
import type { ServiceUpsertContactDto, ServiceUpsertResult } from '../internal/internal-contacts.dto.js';

/** What `upsertFor` answers for a write (`duplicate`: an earlier call with its key applied it). */
const serviceResult = (write: ContactWrite, duplicate: boolean): ServiceUpsertResult => ({
  contact: contactView(write.contact),
  created: write.created,
  changedKeys: write.changedKeys,
  transient: write.transient,
  duplicate,
});

export type UpsertedContact = ContactView & { _meta: { isNew: boolean; isUpdate: boolean } };

/** See ContactsService.countContacts. */
const COUNT_PROBE = 1000;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Contacts API use cases: upsert, read, patch, delete, list with search, bulk lookup. */
@Injectable()
export class ContactsService {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    private readonly writer: ContactWriter,
  ) {}

  async upsert(projectId: string, dto: UpsertContactDto, correlationId?: string): Promise<UpsertedContact> {
    const write = await this.db.transaction((m) =>
      this.writer.upsert(
        m,
        { projectId, subscribedIfNew: true, reason: 'api', correlationId },
        { email: dto.email, subscribed: dto.subscribed, data: dto.data },
      ),
    );
    return { ...contactView(write.contact), _meta: { isNew: write.created, isUpdate: !write.created } };
  }

  /**
   * The upsert of another service (/v1/send, workflows): its own default subscription and reason.
   * With an `idempotencyKey` (a workflow step run's id) the update is applied at most once per key:
   * the key is written in the update's transaction, so a repeat (a retried or redelivered step, even
   * concurrent) waits for the first, finds its key, and changes nothing (`duplicate: true`).
   */
  async upsertFor(
    projectId: string,
    dto: ServiceUpsertContactDto,
    correlationId?: string,
  ): Promise<ServiceUpsertResult> {
    const write = await this.db.transaction(async (m) => {
      const [repeat] = await this.claimKeys(m, projectId, [dto]);
      if (repeat) return null;
      return this.writer.upsert(
        m,
        { projectId, subscribedIfNew: dto.subscribedIfNew, reason: dto.reason, correlationId },
        { email: dto.email, subscribed: dto.subscribed, data: dto.data },
        dto.idIfNew,
      );
    });
    if (!write) {
      const [contact] = await this.getByEmails(projectId, [dto.email]);
      if (!contact) throw ContactErrors.notFound(normaliseEmail(dto.email));
      return { contact, created: false, changedKeys: [], transient: {}, duplicate: true };
    }
    return serviceResult(write, false);
  }

  /**
   * `upsertFor` of several inputs (the recipients of a /v1/send) in one transaction and a constant
   * number of statements: the idempotency keys claimed in one insert, the contacts locked in one
   * SELECT … FOR UPDATE, every input applied in memory in order (`ContactWriter.upsertMany`), the new
   * and changed contacts written in one statement, then the field registry and the outbox. One
   * result per input, in input order, each what `upsertFor` answers for it called input after input
   * (an address listed twice is created once, then changed; a key listed twice applies once), and
   * the same events in the same order. The whole call commits or fails as one: a repeat whose
   * contact does not exist fails it with CONTACT_NOT_FOUND, a data limit with its 422. When another
   * writer creates one of the new contacts meanwhile, or a proposed id is taken, the inputs are
   * written again one by one in a new transaction (`ContactWriter.upsertInTurn`), same results.
   */
  async upsertManyFor(
    projectId: string,
    dtos: ServiceUpsertContactDto[],
    correlationId?: string,
  ): Promise<ServiceUpsertResult[]> {
    if (dtos.length === 0) return [];
    const items = (repeats: boolean[]): UpsertItem[] =>
      dtos.map((dto, i) => ({
        input: { email: dto.email, subscribed: dto.subscribed, data: dto.data },
        ctx: { projectId, subscribedIfNew: dto.subscribedIfNew, reason: dto.reason, correlationId },
        ...(dto.idIfNew !== undefined ? { idIfNew: dto.idIfNew } : {}),
        repeat: repeats[i]!,
      }));
    const write = (inTurn: boolean) =>
      this.db.transaction(async (m) => {
        const repeats = await this.claimKeys(m, projectId, dtos);
        const writes = inTurn
          ? await this.writer.upsertInTurn(m, projectId, items(repeats))
          : await this.writer.upsertMany(m, projectId, items(repeats));
        return writes.map((w, i) => serviceResult(w, repeats[i]!));
      });
    try {
      return await write(false);
    } catch (err) {
      if (!(err instanceof ConcurrentCreate)) throw err;
      return write(true);
    }
  }

  /**
   * Claims the idempotency keys of `dtos` in the caller's transaction (one insert, keys in order, so
   * concurrent claims cannot deadlock): whether each input is a repeat, its key applied before or
   * by an earlier input of the same call. A concurrent claim of the same key waits for its commit.
   */
  private async claimKeys(
    m: EntityManager,
    projectId: string,
    dtos: Pick<ServiceUpsertContactDto, 'idempotencyKey'>[],
  ): Promise<boolean[]> {
    const keys = [...new Set(dtos.flatMap((d) => (d.idempotencyKey !== undefined ? [d.idempotencyKey] : [])))].sort();
    if (keys.length === 0) return dtos.map(() => false);
    const claimed: { key: string }[] = await m.query(
      `INSERT INTO ${tableName(m, ContactUpdateKey)} (project_id, key)
       SELECT $1, k FROM unnest($2::varchar[]) AS k ORDER BY k
       ON CONFLICT DO NOTHING RETURNING key`,
      [projectId, keys],
    );
    const fresh = new Set(claimed.map((r) => r.key));
    return dtos.map((d) => d.idempotencyKey !== undefined && !fresh.delete(d.idempotencyKey));
  }

  /** Subscribe or unsubscribe one contact (links in emails, bounces, complaints). */
  async setSubscription(
    projectId: string,
    id: string,
    subscribed: boolean,
    reason: SubscriptionChangeReason,
    correlationId?: string,
    via?: WriteContext['via'],
  ): Promise<{ contact: ContactView; changed: boolean }> {
    const write = await this.db.transaction((m) =>
      this.writer.update(m, { projectId, subscribedIfNew: true, reason, correlationId, via }, id, { subscribed }),
    );
    return { contact: contactView(write.contact), changed: write.changedKeys.includes('subscribed') };
  }

  /** One contact as it is now (a deleted field is gone even while its job still runs). */
  async get(projectId: string, id: string): Promise<ContactView> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${tableName(this.db, Contact)} WHERE project_id = $1 AND id = $2`,
      [projectId, id],
    );
    if (!rows[0]) throw ContactErrors.notFound(id);
    return contactView(contactFromRow(rows[0]));
  }

  async update(projectId: string, id: string, dto: UpdateContactDto, correlationId?: string): Promise<ContactView> {
    const write = await this.db.transaction((m) =>
      this.writer.update(m, { projectId, subscribedIfNew: true, reason: 'api', correlationId }, id, dto),
    );
    return contactView(write.contact);
  }

  /** Deletes the contact and its tracked events. */
  async delete(projectId: string, id: string, correlationId?: string): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.query(`DELETE FROM ${tableName(m, TrackedEvent)} WHERE project_id = $1 AND contact_id = $2`, [
        projectId,
        id,
      ]);
      if (!(await this.writer.delete(m, { projectId, subscribedIfNew: true, reason: 'api', correlationId }, id)))
        throw ContactErrors.notFound(id);
    });
  }

  /** Newest first, keyset-paginated; `search` uses the trigram index on email. */
  async list(projectId: string, q: ListContactsQueryDto): Promise<CursorPage<ContactView>> {
    const filters = ['project_id = $1'];
    const params: unknown[] = [projectId];
    if (q.search) {
      params.push(`%${escapeLike(q.search.trim().toLowerCase())}%`);
      filters.push(`email LIKE $${params.length}`);
    }
    if (q.subscribed !== undefined) {
      params.push(q.subscribed);
      filters.push(`subscribed = $${params.length}`);
    }
    const table = tableName(this.db, Contact);
    const page = await keysetPage(this.db, q, {
      table,
      columns: CONTACT_COLUMNS,
      filters,
      params,
      total: () => this.countContacts(table, filters, params),
    });
    return { ...page, data: page.data.map((r) => contactView(contactFromRow(r))) };
  }

  /**
   * The `total` of a contact list, exact, in at most two statements. Up to COUNT_PROBE matches are
   * counted in `contacts`, where the trigram index finds a rare substring at once; a list that
   * reaches COUNT_PROBE is counted in full in `contact_search` (same columns, same filters), whose
   * sequential scan reads a third of the bytes of one over `contacts`. Unbounded counts never run
   * on `contacts`.
   */
  private async countContacts(table: string, filters: string[], params: unknown[]): Promise<number> {
    const where = filters.join(' AND ');
    const [probe] = await this.db.query(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${where} LIMIT ${COUNT_PROBE}) m`,
      params,
    );
    if (Number(probe.n) < COUNT_PROBE) return Number(probe.n);
    const [all] = await this.db.query(
      `SELECT count(*) AS n FROM ${tableName(this.db, ContactSearchEntry)} WHERE ${where}`,
      params,
    );
    return Number(all.n);
  }

  /** The contacts of up to 500 addresses as they are now (sending's internal intake renders with them). */
  async getByEmails(projectId: string, emails: string[]): Promise<ContactView[]> {
    const wanted = [...new Set(emails.map(normaliseEmail))];
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${tableName(this.db, Contact)} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, wanted],
    );
    return rows.map((r) => contactView(contactFromRow(r)));
  }

  /** Which of up to 500 emails are contacts of the project. */
  async lookup(
    projectId: string,
    emails: string[],
  ): Promise<{ found: { id: string; email: string; subscribed: boolean }[]; notFound: string[] }> {
    const wanted = [...new Set(emails.map(normaliseEmail))];
    const rows: { id: string; email: string; subscribed: boolean }[] = await this.db.query(
      `SELECT id, email, subscribed FROM ${tableName(this.db, Contact)} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, wanted],
    );
    const found = new Set(rows.map((r) => r.email));
    return { found: rows, notFound: wanted.filter((e) => !found.has(e)) };
  }
}
