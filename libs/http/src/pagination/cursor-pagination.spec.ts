import { cursorPage, decodeCursor, encodeCursor } from './cursor-pagination.js';

describe('cursor pagination helper', () => {
  const rows = Array.from({ length: 6 }, (_, i) => ({ id: `id${i}`, createdAt: `2026-01-0${i + 1}` }));
  const pos = (r: { id: string; createdAt: string }) => ({ k: r.createdAt, id: r.id });

  it('returns limit items, hasMore and a cursor when an extra row was fetched', () => {
    const page = cursorPage(rows, 5, pos, 6);
    expect(page.data).toHaveLength(5);
    expect(page.hasMore).toBe(true);
    expect(decodeCursor(page.cursor!)).toEqual({ k: '2026-01-05', id: 'id4' });
    expect(page.total).toBe(6);
  });

  it('ends with hasMore false and no cursor', () => {
    const page = cursorPage(rows.slice(0, 3), 5, pos, 0);
    expect(page).toMatchObject({ hasMore: false, cursor: null, total: 0 });
  });

  it('rejects a cursor it did not issue with 422', () => {
    expect(() => decodeCursor('not-a-cursor')).toThrow('Invalid cursor');
    expect(decodeCursor(encodeCursor({ k: 3, id: 'x' }))).toEqual({ k: 3, id: 'x' });
  });
});

describe('timestamp cursors', () => {
  const forged = (k: unknown) => Buffer.from(JSON.stringify({ k, id: 'x' })).toString('base64url');
  it('accept the positions PostgreSQL prints and refuse anything else with 422', () => {
    expect(decodeCursor(forged('2026-11-21 12:29:06.604624+00'), { timestamp: true }).k).toBe(
      '2026-11-21 12:29:06.604624+00',
    );
    for (const k of ['not-a-timestamp', 12345, '2026-13-45 99:00:00+00'])
      expect(() => decodeCursor(forged(k), { timestamp: true })).toThrow('Invalid cursor');
  });
});
