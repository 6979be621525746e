import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** Quoted, schema-qualified table name of an entity, for the raw SQL of hot paths. */
export function tableName(source: DataSource | EntityManager, entity: EntityTarget<ObjectLiteral>): string {
  const ds = 'connection' in source ? source.connection : source;
  const meta = ds.getMetadata(entity);
  return meta.schema ? `"${meta.schema}"."${meta.tableName}"` : `"${meta.tableName}"`;
}
