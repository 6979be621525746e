import type { WireGroup } from '@herald/filters';
import type { DataSource } from 'typeorm';
import { Segment } from './segment.entity.js';

/** What a test says about a dynamic segment; the rest takes the defaults of one just created. */
export interface DynamicSegmentRow {
  id: string;
  projectId: string;
  filters: WireGroup;
  name?: string;
  trackMembership?: boolean;
  /** Its members stored and complete (default false: a segment whose first compute has not run). */
  materialized?: boolean;
}

/** Saves a dynamic segment row directly (no compute, no events), for integration specs. */
export function saveDynamicSegment(ds: DataSource, row: DynamicSegmentRow): Promise<Segment> {
  const repo = ds.getRepository(Segment);
  return repo.save(
    repo.create({
      name: row.id,
      description: null,
      type: 'DYNAMIC',
      trackMembership: false,
      materialized: false,
      memberCount: 0,
      ...row,
    }),
  );
}
