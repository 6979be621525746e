import { normaliseEmail } from '@herald/contact-data';
import type { SubscriptionChangeReason } from '@herald/contracts';
import type { CursorPage } from '@herald/http';
import type {
  UpsertContactAnswer as ServiceUpsertResult,
  UpsertContactRequest as ServiceUpsertContactDto,
} from '@herald/internal-contracts';
import { commitWithoutFlushWait, WriteConflict, type CommitOptions } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import type { ListContactsQueryDto, UpdateContactDto, UpsertContactDto } from './contact.dto.js';
import { contactView, type ContactView } from './contact-view.js';
import {
  ConcurrentCreate,
  ContactWriter,
  type ContactWrite,
  type UpsertItem,
  type WriteContext,
} from './contact-writer.js';
import { ContactErrors } from './contact.errors.js';
import { ContactStore } from './contacts.store.js';

/** What `upsertFor` answers for a write (`duplicate`: an earlier call with its key applied it). */
const serviceResult = (write: ContactWrite, duplicate: boolean): ServiceUpsertResult => ({
  contact: contactView(write.contact),
  created: write.created,
  changedKeys: write.changedKeys,
  transient: write.transient,
  duplicate,
});

export type UpsertedContact = ContactView & { _meta: { isNew: boolean; isUpdate: boolean } };

/** Contacts API use cases: upsert, read, patch, delete, list with search, bulk lookup; their SQL is the ContactStore's. */
@Injectable()
export class ContactsService {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    private readonly writer: ContactWriter,
    // stores hold no state: one built by hand (test/integration does) gets its own
    private readonly store: ContactStore = new ContactStore(),
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
   * Inputs without idempotency keys (the recipients of a /v1/send) are first written as /v1/track
   * writes its contacts: one read and one guarded statement, no lock and no transaction
   * (`ContactWriter.upsertManyAtomically`), the same plan, results and events; when a contact changed
   * between the two (`WriteConflict`), nothing was written and the locking path above runs.
   * `commit.flushWait: false` (a caller whose durable commit on the same server follows) lets
   * either path's commit return before the disk has its WAL (`NO_FLUSH_WAIT`).
   */
  async upsertManyFor(
    projectId: string,
    dtos: ServiceUpsertContactDto[],
    correlationId?: string,
    commit: CommitOptions = {},
  ): Promise<ServiceUpsertResult[]> {
    if (dtos.length === 0) return [];
    const items = (repeats: boolean[]): UpsertItem[] =>
      dtos.map((dto, i) => ({
        input: { email: dto.email, subscribed: dto.subscribed, data: dto.data },
        ctx: { projectId, subscribedIfNew: dto.subscribedIfNew, reason: dto.reason, correlationId },
        ...(dto.idIfNew !== undefined ? { idIfNew: dto.idIfNew } : {}),
        repeat: repeats[i]!,
      }));
    if (dtos.every((d) => d.idempotencyKey === undefined)) {
      try {
        const writes = await this.writer.upsertManyAtomically(this.db, projectId, items(dtos.map(() => false)), {
          commit,
        });
        return writes.map((w) => serviceResult(w, false));
      } catch (err) {
        if (!(err instanceof WriteConflict)) throw err;
      }
    }
    const write = (inTurn: boolean) =>
      this.db.transaction(async (m) => {
        if (commit.flushWait === false) await commitWithoutFlushWait(m);
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
    const fresh = new Set(await this.store.claimKeys(m, projectId, keys));
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
    const contact = await this.store.get(this.db, projectId, id);
    if (!contact) throw ContactErrors.notFound(id);
    return contactView(contact);
  }

  async update(projectId: string, id: string, dto: UpdateContactDto, correlationId?: string): Promise<ContactView> {
    const write = await this.db.transaction((m) =>
      this.writer.update(m, { projectId, subscribedIfNew: true, reason: 'api', correlationId }, id, dto),
    );
    return contactView(write.contact);
  }

  /** Deletes the contact and its timeline (tracked and system events). */
  async delete(projectId: string, id: string, correlationId?: string): Promise<void> {
    await this.db.transaction(async (m) => {
      if (!(await this.writer.delete(m, { projectId, subscribedIfNew: true, reason: 'api', correlationId }, id)))
        throw ContactErrors.notFound(id);
    });
  }

  /** Newest first, keyset-paginated; `search` uses the trigram index on email; `total` exact (ContactStore.list). */
  async list(projectId: string, q: ListContactsQueryDto): Promise<CursorPage<ContactView>> {
    const page = await this.store.list(this.db, projectId, q);
    return { ...page, data: page.data.map(contactView) };
  }

  /** The contacts of up to 500 addresses as they are now (sending's internal intake renders with them). */
  async getByEmails(projectId: string, emails: string[]): Promise<ContactView[]> {
    const wanted = [...new Set(emails.map(normaliseEmail))];
    return (await this.store.getByEmails(this.db, projectId, wanted)).map(contactView);
  }

  /** Which of up to 500 emails are contacts of the project. */
  async lookup(
    projectId: string,
    emails: string[],
  ): Promise<{ found: { id: string; email: string; subscribed: boolean }[]; notFound: string[] }> {
    const wanted = [...new Set(emails.map(normaliseEmail))];
    const rows = await this.store.lookup(this.db, projectId, wanted);
    const found = new Set(rows.map((r) => r.email));
    return { found: rows, notFound: wanted.filter((e) => !found.has(e)) };
  }
}
