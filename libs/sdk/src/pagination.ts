/**
 * Async iterators over Herald's two kinds of lists (docs/contacts.md, docs/campaigns.md):
 * - **cursor lists** (`GET /contacts`, `/emails`, `/events`, `/templates`, …) answer
 *   `{data, cursor, hasMore}`: the next page is asked with `cursor`, until `cursor` is null;
 * - **page lists** (`GET /campaigns`, `/segments/{id}/contacts`, …) answer a page number and a
 *   total of pages: the next page is `page + 1`, until `totalPages`.
 */

export interface CursorPage<T> {
  data: T[];
  cursor: string | null;
  hasMore?: boolean;
}

/** Every item of a cursor list, page after page, as `fetchPage(cursor)` answers them. */
export async function* iterateCursor<T>(
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    if (page.cursor === null || page.cursor === undefined || page.hasMore === false || page.data.length === 0) return;
    cursor = page.cursor;
  }
}

export interface NumberedPage<T> {
  items: T[];
  page: number;
  totalPages: number;
}

/** Every item of a page list, pages 1, 2, … up to the answer's `totalPages`. */
export async function* iteratePages<T>(
  fetchPage: (page: number) => Promise<NumberedPage<T>>,
): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page++) {
    const answer = await fetchPage(page);
    yield* answer.items;
    if (answer.items.length === 0 || answer.page >= answer.totalPages) return;
  }
}

/** Collects an async iterable (a whole list) into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
