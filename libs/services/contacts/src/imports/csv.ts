import { parseString, type CsvParserStream } from 'fast-csv';

/** A CSV parser over the file's text: rows as arrays of cells, blank lines skipped, no trimming. */
export function csvRows(text: string): CsvParserStream<string[], string[]> {
  return parseString<string[], string[]>(text, {
    headers: false,
    ignoreEmpty: true,
    strictColumnHandling: false,
    discardUnmappedColumns: false,
  });
}

/** Decodes UTF-8 strictly (a BOM is dropped); undefined when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}
