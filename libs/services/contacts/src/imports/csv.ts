import { parse } from 'fast-csv';

/** Bytes of the file handed to the parser at a time; the event loop gets a turn between two. */
export const CSV_CHUNK_BYTES = 64 * 1024;

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
const hasBom = (file: Buffer): boolean => UTF8_BOM.every((byte, i) => file[i] === byte);
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The rows of a CSV file (UTF-8, a BOM dropped) as arrays of cells: blank lines skipped, no
 * trimming. The file goes to fast-csv's parser a chunk of {@link CSV_CHUNK_BYTES} at a time, each
 * parsed on its own turn of the event loop, so a 5 MB file (100,000 rows, or one row of 50,000
 * columns) never holds the loop for more than one chunk's parse. A malformed file throws.
 */
export async function* csvRows(file: Buffer): AsyncGenerator<string[]> {
  const parser = parse<string[], string[]>({
    headers: false,
    ignoreEmpty: true,
    strictColumnHandling: false,
    discardUnmappedColumns: false,
  });
  let rows: string[][] = [];
  let failure: unknown;
  parser.on('data', (row: string[]) => rows.push(row));
  parser.on('error', (err) => (failure ??= err));
  const finished = new Promise<void>((resolve) => {
    parser.once('end', resolve);
    parser.once('error', () => resolve());
  });
  const take = (): string[][] => {
    const ready = rows;
    rows = [];
    return ready;
  };
  for (let at = hasBom(file) ? UTF8_BOM.length : 0; at < file.length; at += CSV_CHUNK_BYTES) {
    parser.write(file.subarray(at, at + CSV_CHUNK_BYTES));
    await nextTurn();
    if (failure) throw failure;
    yield* take();
  }
  parser.end();
  await finished;
  if (failure) throw failure;
  yield* take();
}

/** Decodes UTF-8 strictly (a BOM is dropped); undefined when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}
