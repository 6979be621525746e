import { tableName } from '@herald/persistence';
import { CONTACTS } from '../consumer.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { TrackedEvent } from '../events/tracked-event.entity.js';
import { liveDataSql } from '../fields/live-data.js';
import type { ExportedContact } from './internal-contacts.dto.js';

/**
 * A project's contacts page by page in id order, each with its custom tracked events: what the
 * segments service rebuilds its read model from (docs/segments.md, "Backfill"). One statement per
 * page; a page of 1,000 contacts carries their events (a contact with very many events makes a
 * large page: the read model only needs names and times). `data` is the live data, as every read
 * shows it: the keys of a field being deleted are left out even in rows the job has not reached.
 */
@Injectable()
export class ContactsExport {
  constructor(@InjectDataSource(CONTACTS) private readonly db: DataSource) {}

  async page(
    projectId: string,
    after: string | undefined,
    limit: number,
  ): Promise<{ contacts: ExportedContact[]; next: string | null }> {
    const rows: {
      id: string;
      email: string;
      subscribed: boolean;
      data: Record<string, unknown>;
      created_at: Date;
      updated_at: Date;
      events: { id: string; name: string; at: string }[];
    }[] = await this.db.query(
      `SELECT c.id, c.email, c.subscribed, ${liveDataSql('c')} AS data, c.created_at, c.updated_at,
                COALESCE((SELECT jsonb_agg(jsonb_build_object('id', e.id, 'name', e.name, 'at', e.created_at) ORDER BY e.created_at, e.id)
                            FROM ${tableName(this.db, TrackedEvent)} e
                           WHERE e.project_id = c.project_id AND e.contact_id = c.id AND NOT e.system), '[]'::jsonb) AS events
           FROM ${tableName(this.db, Contact)} c
          WHERE c.project_id = $1 AND ($2::varchar IS NULL OR c.id > $2::varchar)
          ORDER BY c.id LIMIT $3`,
      [projectId, after ?? null, limit],
    );
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
