import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** Quoted, schema-qualified table name of an entity, for the raw SQL of hot paths. */
export function tableName(source: DataSource | EntityManager, entity: EntityTarget<ObjectLiteral>): string {
  const ds = 'connection' in source ? source.connection : source;
  const meta = ds.getMetadata(entity);
  return meta.schema ? `"${meta.schema}"."${meta.tableName}"` : `"${meta.tableName}"`;
}

/** Deletes every row of a project from each of `entities` (their tables have `project_id`): a project's reset or deletion. */
export async function deleteProjectRows(
  manager: EntityManager,
  projectId: string,
  entities: EntityTarget<ObjectLiteral>[],
): Promise<void> {
  for (const entity of entities)
    await manager.query(`DELETE FROM ${tableName(manager, entity)} WHERE project_id = $1`, [projectId]);
}
