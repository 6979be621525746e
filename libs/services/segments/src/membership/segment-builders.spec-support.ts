import type { Segment } from './segment.entity.js';

/* Builders of segments and their filters for the membership unit specs (no database). */

/** A filter of one condition (`extra`: its other properties, a unit or a window). */
export const where = (field: string, operator: string, value?: unknown, extra: Record<string, unknown> = {}) => ({
  operator: 'AND',
  conditions: [{ field, operator, ...(value === undefined ? {} : { value }), ...extra }],
});

/** A computed dynamic segment of project `p` (`extra` overrides any column). */
export const segment = (id: string, filters: unknown, extra: Partial<Segment> = {}): Segment =>
  ({
    id,
    projectId: 'p',
    name: `Segment ${id}`,
    type: 'DYNAMIC',
    trackMembership: false,
    materialized: true,
    filters,
    ...extra,
  }) as Segment;
