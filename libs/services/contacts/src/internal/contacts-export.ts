import { CONTACTS } from '../consumer.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ContactStore } from '../contacts/contacts.store.js';
import type { ExportedContact } from './internal-contacts.dto.js';

/**
 * A project's contacts page by page in id order, each with its custom tracked events: what the
 * segments service rebuilds its read model from (docs/segments.md, "Backfill"). One statement per
 * page (`ContactStore.exportPage`); a page of 1,000 contacts carries their events (a contact with
 * very many events makes a large page: the read model only needs names and times). `data` is the
 * live data, as every read shows it: the keys of a field being deleted are left out even in rows the
 * job has not reached.
 */
@Injectable()
export class ContactsExport {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    private readonly store: ContactStore,
  ) {}

  async page(
    projectId: string,
    after: string | undefined,
    limit: number,
  ): Promise<{ contacts: ExportedContact[]; next: string | null }> {
    const rows = await this.store.exportPage(this.db, projectId, after ?? null, limit);
    const contacts = rows.map((r) => ({
      id: r.id,
      email: r.email,
      subscribed: r.subscribed,
      data: r.data,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
      events: r.events.map((e) => ({ ...e, at: new Date(e.at).toISOString() })),
    }));
    return { contacts, next: contacts.length === limit ? contacts[contacts.length - 1]!.id : null };
  }
}
