import { MicroBatcher, settle } from './micro-batcher.js';

/** A run function whose runs the test finishes by hand. */
function controlledRuns() {
  const runs: { items: string[]; finish: () => void }[] = [];
  let active = 0;
  let maxActive = 0;
  const run = (items: string[]) =>
    new Promise<PromiseSettledResult<string>[]>((resolve) => {
      active++;
      maxActive = Math.max(maxActive, active);
      let finished = false;
      runs.push({
        items,
        finish: () => {
          if (finished) return;
          finished = true;
          active--;
          resolve(items.map((i) => ({ status: 'fulfilled', value: i.toUpperCase() })));
        },
      });
    });
  return { runs, run, maxActive: () => maxActive };
}
const turn = () => new Promise((r) => setImmediate(r));

describe('MicroBatcher', () => {
  it('hands items submitted while a run is in flight to the next run together', async () => {
    const c = controlledRuns();
    const batcher = new MicroBatcher(c.run, { maxBatch: 100, maxConcurrent: 1 });
    const a = batcher.submit('a');
    await turn();
    const rest = ['b', 'c', 'd'].map((x) => batcher.submit(x));
    await turn();
    expect(c.runs.map((r) => r.items)).toEqual([['a']]);
    c.runs[0]!.finish();
    expect(await a).toBe('A');
    await turn();
    await turn();
    expect(c.runs.map((r) => r.items)).toEqual([['a'], ['b', 'c', 'd']]);
    c.runs[1]!.finish();
    expect(await Promise.all(rest)).toEqual(['B', 'C', 'D']);
  });

  it('never answers an item from a run that started before it was submitted', async () => {
    const c = controlledRuns();
    const batcher = new MicroBatcher(c.run, { maxBatch: 100, maxConcurrent: 2 });
    void batcher.submit('early');
    await turn();
    void batcher.submit('late');
    await turn();
    expect(c.runs.map((r) => r.items)).toEqual([['early'], ['late']]);
  });

  it('keeps at most maxConcurrent runs in flight and at most maxBatch items in a run', async () => {
    const c = controlledRuns();
    const batcher = new MicroBatcher(c.run, { maxBatch: 3, maxConcurrent: 2 });
    const all = Array.from({ length: 10 }, (_, i) => batcher.submit(`x${i}`));
    for (let i = 0; i < 5; i++) await turn();
    // two runs in flight, the other items waiting however many turns pass
    expect(c.runs.map((r) => r.items)).toEqual([
      ['x0', 'x1', 'x2'],
      ['x3', 'x4', 'x5'],
    ]);
    c.runs[0]!.finish();
    for (let i = 0; i < 5; i++) await turn();
    expect(c.runs.map((r) => r.items.length)).toEqual([3, 3, 3]);
    for (let i = 0; i < 20 && c.runs.length < 4; i++) {
      c.runs.forEach((r) => r.finish());
      await turn();
    }
    c.runs.forEach((r) => r.finish());
    expect(await Promise.all(all)).toEqual(Array.from({ length: 10 }, (_, i) => `X${i}`));
    expect(c.maxActive()).toBe(2);
    expect(c.runs.flatMap((r) => r.items)).toEqual(Array.from({ length: 10 }, (_, i) => `x${i}`));
  });

  it("settles each item with its own result: one item's failure does not fail the others", async () => {
    const batcher = new MicroBatcher<number, number>(
      async (items) =>
        Promise.all(items.map((n) => settle(async () => (n < 0 ? Promise.reject(new Error(`bad ${n}`)) : n * 2)))),
      { maxBatch: 10, maxConcurrent: 1 },
    );
    const results = await Promise.allSettled([1, -1, 3].map((n) => batcher.submit(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: new Error('bad -1') },
      { status: 'fulfilled', value: 6 },
    ]);
  });

  it('fails every item of a run that throws or answers the wrong number of results, and goes on with the next', async () => {
    let calls = 0;
    const batcher = new MicroBatcher<string, string>(
      async (items) => {
        calls++;
        if (calls === 1) throw new Error('database down');
        if (calls === 2) return [];
        return items.map((value) => ({ status: 'fulfilled', value }));
      },
      { maxBatch: 10, maxConcurrent: 1 },
    );
    await expect(Promise.all([batcher.submit('a'), batcher.submit('b')])).rejects.toThrow('database down');
    await expect(batcher.submit('c')).rejects.toThrow('answered 0 results for 1 items');
    expect(await batcher.submit('d')).toBe('d');
  });
});
