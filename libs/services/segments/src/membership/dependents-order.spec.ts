import type { Segment } from './segment.entity.js';
import { dependentsInOrder } from './segment-dependencies.js';
import { ProjectContext } from './project-context.js';

const ctxOf = (...ids: string[]) =>
  new ProjectContext(
    'p',
    new Map(ids.map((id) => [id, { id, projectId: 'p', type: 'DYNAMIC', materialized: true } as Segment])),
    {},
  );

describe('dependentsInOrder', () => {
  it('re-evaluates a segment after the stored segments it reads, whatever their ids', () => {
    // seg_a reads seg_c, which reads seg_b (a PATCH can point an older segment at a newer one)
    const reads = new Map([
      ['seg_a', new Set(['seg_c'])],
      ['seg_c', new Set(['seg_b'])],
      ['seg_b', new Set(['seg_independent'])],
    ]);
    expect(dependentsInOrder(ctxOf('seg_a', 'seg_b', 'seg_c', 'seg_independent'), reads).map((s) => s.id)).toEqual([
      'seg_b',
      'seg_c',
      'seg_a',
    ]);
  });

  it('keeps id order between segments that do not read each other, and places each once', () => {
    const reads = new Map([
      ['seg_b', new Set(['seg_x'])],
      ['seg_a', new Set(['seg_x'])],
      ['seg_c', new Set(['seg_a', 'seg_b'])],
    ]);
    expect(dependentsInOrder(ctxOf('seg_a', 'seg_b', 'seg_c', 'seg_x'), reads).map((s) => s.id)).toEqual([
      'seg_a',
      'seg_b',
      'seg_c',
    ]);
  });
});
