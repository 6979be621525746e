import type { FieldType } from '@herald/contact-data';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SegmentContact, SegmentFieldType } from '../contacts/read-model.entities.js';
import { ReadModelStore } from '../contacts/read-model.store.js';
import { Segment, SegmentMembership } from './segment.entity.js';

/** A segment a deleted contact left. */
export interface LeftSegment {
  id: string;
  name: string;
  type: string;
  track_membership: boolean;
}

/**
 * The SQL of segments and their stored members (`segments`, `segment_memberships`): the project's
 * segments as a context loads them, their cached counts (every membership change adds its delta
 * under the segment's row lock, rows locked in id order), a compute's end, a static segment's
 * members, a deleted contact's memberships and the stored members' pages. Every method runs in the
 * caller's transaction (or, given a manager without one, on its own connection). The statements
 * that evaluate filters are EvaluationStore's.
 */
@Injectable()
export class SegmentsStore {
  constructor(private readonly readModel: ReadModelStore) {}

  /**
   * The project's segments in id order and its field types, in one statement: the field types ride on
   * each segment's row; a project without segments reads them on their own.
   */
  async ofProject(
    m: EntityManager,
    projectId: string,
  ): Promise<{ segments: Segment[]; fieldTypes: Map<string, FieldType> }> {
    const { entities, raw } = await m
      .createQueryBuilder(Segment, 's')
      .addSelect(
        `(SELECT coalesce(json_object_agg(f.field, f.type), '{}') FROM ${tableName(m, SegmentFieldType)} f
           WHERE f.project_id = :projectId)`,
        'field_types',
      )
      .where('s.projectId = :projectId', { projectId })
      .orderBy('s.id', 'ASC')
      .getRawAndEntities<{ field_types: Record<string, FieldType> }>();
    return {
      segments: entities,
      fieldTypes: raw[0] ? new Map(Object.entries(raw[0].field_types)) : await this.readModel.fieldTypes(m, projectId),
    };
  }

  /**
   * What a project's context (`ofProject`) holds for a re-evaluation, as a string that moves when it
   * does: its segments' ids and versions (a definition saved through the entity moves its version)
   * and whether each is stored (`materialized`, written raw), and its field types. Counts and
   * `members_as_of` are left out: a re-evaluation reads neither.
   */
  async stampOf(m: EntityManager, projectId: string): Promise<string> {
    const [{ stamp }] = await m.query<[{ stamp: string }]>(
      `SELECT (SELECT coalesce(string_agg(s.id || ':' || s.version || ':' || s.materialized, ',' ORDER BY s.id), '')
                 FROM ${tableName(m, Segment)} s WHERE s.project_id = $1)
              || '|' || (SELECT coalesce(json_object_agg(f.field, f.type ORDER BY f.field)::text, '')
                 FROM ${tableName(m, SegmentFieldType)} f WHERE f.project_id = $1) AS stamp`,
      [projectId],
    );
    return stamp;
  }

  /** Adds each segment's delta to its cached count (never below 0), the rows locked in id order (as every writer does). */
  async adjustCounts(m: EntityManager, delta: Map<string, number>): Promise<void> {
    const changed = [...delta].filter(([, d]) => d !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (changed.length === 0) return;
    const segments = tableName(m, Segment);
    await m.query(
      `WITH d AS (SELECT * FROM unnest($1::varchar[], $2::int[]) AS d(id, delta)),
            locked AS (SELECT s.id FROM ${segments} s WHERE s.id IN (SELECT id FROM d) ORDER BY s.id FOR UPDATE)
       UPDATE ${segments} s SET member_count = GREATEST(s.member_count + d.delta, 0)
         FROM d JOIN locked USING (id) WHERE s.id = d.id`,
      [changed.map(([id]) => id), changed.map(([, d]) => d)],
    );
  }

  /**
   * Counts the stored members again and caches the count, in the caller's transaction. The segment
   * row is locked first: a membership change commits its `member_count` delta under that lock, so
   * the count (a statement after the lock) sees every change whose delta is already in, and every
   * other change adds its delta after this one. An unknown segment counts 0.
   */
  async recount(t: EntityManager, projectId: string, segmentId: string): Promise<number> {
    const locked = await t.query<unknown[]>(
      `SELECT 1 FROM ${tableName(t, Segment)} WHERE project_id = $1 AND id = $2 FOR UPDATE`,
      [projectId, segmentId],
    );
    if (locked.length === 0) return 0;
    const [row] = await t.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${tableName(t, SegmentMembership)} WHERE project_id = $1 AND segment_id = $2`,
      [projectId, segmentId],
    );
    const n = row?.n ?? 0;
    await t.query(
      `UPDATE ${tableName(t, Segment)} SET member_count = $3, counted_at = now() WHERE project_id = $1 AND id = $2`,
      [projectId, segmentId, n],
    );
    return n;
  }

  /**
   * Caches a count of the filter. Not a change of the segment: its version and updatedAt stay (a
   * Repository update would advance both, and a compute running meanwhile would take the segment as changed).
   */
  async cacheCount(m: EntityManager, segmentId: string, n: number): Promise<void> {
    await m.query(`UPDATE ${tableName(m, Segment)} SET member_count = $2, counted_at = now() WHERE id = $1`, [
      segmentId,
      n,
    ]);
  }

  /**
   * The end of a compute: the segment is `materialized` and its members are as of `now`, unless its
   * filter changed meanwhile (its `version` moved: raw statements such as this one and the count's
   * deltas leave the version alone, only a change saved through the entity moves it).
   */
  async markMaterialized(
    m: EntityManager,
    projectId: string,
    segmentId: string,
    version: number | undefined,
    now: Date,
  ): Promise<void> {
    await m.query(
      `UPDATE ${tableName(m, Segment)} SET materialized = true, members_as_of = GREATEST(members_as_of, $4)
        WHERE project_id = $1 AND id = $2 AND version = $3`,
      [projectId, segmentId, version, now],
    );
  }

  /** Adds contacts to a static segment (locked by the caller) and to its count; answers how many were not members. */
  async addStaticMembers(
    m: EntityManager,
    projectId: string,
    segmentId: string,
    contactIds: string[],
  ): Promise<number> {
    const rows: unknown[] = await m.query(
      `INSERT INTO ${tableName(m, SegmentMembership)} (project_id, segment_id, contact_id)
         SELECT $1::varchar, $2::varchar, unnest($3::varchar[]) ON CONFLICT DO NOTHING RETURNING 1`,
      [projectId, segmentId, contactIds],
    );
    await m.query(`UPDATE ${tableName(m, Segment)} SET member_count = member_count + $2 WHERE id = $1`, [
      segmentId,
      rows.length,
    ]);
    return rows.length;
  }

  /** Removes contacts from a static segment (locked by the caller) and from its count; answers how many were members. */
  async removeStaticMembers(
    m: EntityManager,
    projectId: string,
    segmentId: string,
    contactIds: string[],
  ): Promise<number> {
    const rows: unknown[] = await m.query(
      `WITH d AS (DELETE FROM ${tableName(m, SegmentMembership)} WHERE project_id = $1 AND segment_id = $2 AND contact_id = ANY($3::varchar[]) RETURNING 1) SELECT 1 FROM d`,
      [projectId, segmentId, contactIds],
    );
    await m.query(`UPDATE ${tableName(m, Segment)} SET member_count = GREATEST(member_count - $2, 0) WHERE id = $1`, [
      segmentId,
      rows.length,
    ]);
    return rows.length;
  }

  /**
   * `contact.deleted`: every stored membership of the contact goes; answers the segments it left (id
   * order), their counts not yet adjusted.
   */
  async leaveAll(m: EntityManager, projectId: string, contactId: string): Promise<LeftSegment[]> {
    const rows = await m.query<{ segment_id: string }[]>(
      `WITH d AS (DELETE FROM ${tableName(m, SegmentMembership)} WHERE project_id = $1 AND contact_id = $2 RETURNING segment_id) SELECT segment_id FROM d`,
      [projectId, contactId],
    );
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.segment_id).sort();
    return m.query<LeftSegment[]>(
      `SELECT id, name, type, track_membership FROM ${tableName(m, Segment)} WHERE project_id = $1 AND id = ANY($2::varchar[]) ORDER BY id`,
      [projectId, ids],
    );
  }

  /**
   * One page of a segment's stored members, read by the memberships' primary key (project, segment,
   * contact id order), with their read-model rows.
   */
  storedMembersPage(
    m: EntityManager,
    projectId: string,
    segmentId: string,
    limit: number,
    offset: number,
  ): Promise<Record<string, unknown>[]> {
    return m.query<Record<string, unknown>[]>(
      `SELECT c.* FROM (SELECT ms.contact_id FROM ${tableName(m, SegmentMembership)} ms
                         WHERE ms.project_id = $1 AND ms.segment_id = $2
                         ORDER BY ms.contact_id LIMIT ${limit} OFFSET ${offset}) p
         JOIN ${tableName(m, SegmentContact)} c ON c.project_id = $1 AND c.contact_id = p.contact_id
        ORDER BY c.contact_id`,
      [projectId, segmentId],
    );
  }
}
