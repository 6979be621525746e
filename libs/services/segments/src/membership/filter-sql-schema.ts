import { DEFAULT_FILTER_SQL_SCHEMA, type FilterSqlSchema } from '@herald/filters';
import type { DataSource, EntityManager } from 'typeorm';
import { SegmentContact, SegmentContactEmail, SegmentContactEvent } from '../contacts/read-model.entities.js';
import { SegmentMembership } from './segment.entity.js';

/** The read model's tables under the service's schema, for `compileFilter`. */
export function filterSqlSchema(db: DataSource | EntityManager): FilterSqlSchema {
  const ds = 'connection' in db ? db.connection : db;
  const name = (entity: object) => {
    const meta = ds.getMetadata(entity as never);
    return meta.schema ? `${meta.schema}.${meta.tableName}` : meta.tableName;
  };
  return {
    contacts: { ...DEFAULT_FILTER_SQL_SCHEMA.contacts, table: name(SegmentContact) },
    events: { ...DEFAULT_FILTER_SQL_SCHEMA.events, table: name(SegmentContactEvent) },
    emails: { ...DEFAULT_FILTER_SQL_SCHEMA.emails, table: name(SegmentContactEmail) },
    memberships: { ...DEFAULT_FILTER_SQL_SCHEMA.memberships, table: name(SegmentMembership) },
  };
}
