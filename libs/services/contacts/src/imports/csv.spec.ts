import { CSV_CHUNK_BYTES, csvRows } from './csv.js';

const rowsOf = async (file: Buffer): Promise<string[][]> => {
  const rows: string[][] = [];
  for await (const row of csvRows(file)) rows.push(row);
  return rows;
};

describe('CSV rows: parsed a chunk at a time, the same rows whatever the chunk boundaries', () => {
  it('drops a UTF-8 BOM, skips blank lines and keeps cells as written (no trimming)', async () => {
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('email,name\n\na@x.test, Ada \r\n')]);
    expect(await rowsOf(file)).toEqual([
      ['email', 'name'],
      ['a@x.test', ' Ada '],
    ]);
  });

  it('a quoted cell with a line break, and a multi-byte character, split by a chunk boundary come out whole', async () => {
    const head = 'email,note\n';
    const pad = 'p@x.test,' + 'x'.repeat(CSV_CHUNK_BYTES - head.length - 'p@x.test,'.length - 3) + '\n';
    // the quoted cell starts 2 bytes before the boundary and holds a line break and a 4-byte emoji across it
    const file = Buffer.from(`${head}${pad}q@x.test,"a\n😀 b"\n`);
    expect(file.length).toBeGreaterThan(CSV_CHUNK_BYTES);
    const rows = await rowsOf(file);
    expect(rows.at(-1)).toEqual(['q@x.test', 'a\n😀 b']);
    expect(rows).toHaveLength(3);
  });

  it('a file of many chunks gives the event loop a turn between two chunks', async () => {
    const file = Buffer.from('email,plan\n' + Array.from({ length: 40_000 }, (_, i) => `c${i}@x.test,pro\n`).join(''));
    const chunks = Math.ceil(file.length / CSV_CHUNK_BYTES);
    let turns = 0;
    let counting = true;
    const count = (): void => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const rows = await rowsOf(file);
    counting = false;
    expect(rows).toHaveLength(40_001);
    expect(chunks).toBeGreaterThan(5);
    expect(turns).toBeGreaterThanOrEqual(chunks - 1);
  });

  it('a row of 50,000 columns is one row', async () => {
    const header = ['email', ...Array.from({ length: 49_999 }, (_, i) => `c${i}`)].join(',');
    const rows = await rowsOf(Buffer.from(`${header}\na@x.test\n`));
    expect(rows[0]).toHaveLength(50_000);
    expect(rows[1]).toEqual(['a@x.test']);
  });

  it('a quote left open at the end of the file is an error', async () => {
    await expect(rowsOf(Buffer.from('email\n"a@x.test'))).rejects.toThrow(/Parse Error/);
  });
});
