import type { WireGroup } from '@herald/filters';
import type { Segment, SegmentType } from '../membership/segment.entity.js';

/** A segment as the API shows it: `filters` (the spec's create name) and `condition` (the listing's) are the same filter. */
export interface SegmentView {
  id: string;
  name: string;
  description: string | null;
  type: SegmentType;
  filters: WireGroup | null;
  condition: WireGroup | null;
  trackMembership: boolean;
  memberCount: number;
  createdAt: string;
  updatedAt: string;
}

export const segmentView = (s: Segment): SegmentView => ({
  id: s.id,
  name: s.name,
  description: s.description,
  type: s.type,
  filters: s.filters,
  condition: s.filters,
  trackMembership: s.trackMembership,
  memberCount: s.memberCount,
  createdAt: new Date(s.createdAt).toISOString(),
  updatedAt: new Date(s.updatedAt).toISOString(),
});

/** A member as the API shows it (the contacts read model's columns, named as contacts names them). */
export interface MemberView {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export const memberView = (r: Record<string, unknown>): MemberView => ({
  id: r.contact_id as string,
  email: r.email as string,
  subscribed: r.subscribed as boolean,
  data: (r.data ?? {}) as Record<string, unknown>,
  createdAt: new Date(r.created_at as string).toISOString(),
  updatedAt: new Date(r.updated_at as string).toISOString(),
});

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}
