import { HandoffWriter } from './handoff-writer.js';

/** A HandoffWriter on a recorded store; `fail` makes its next statement fail. */
function setup() {
  const statements: string[][] = [];
  const state: { fail: boolean; hold?: Promise<void> } = { fail: false };
  const store = {
    recordHandoffs: async (ids: string[]) => {
      statements.push([...ids]);
      await state.hold;
      if (state.fail) throw new Error('database down');
    },
  };
  return { writer: new HandoffWriter(store), statements, state };
}

describe('HandoffWriter: hand-offs of concurrent sends are written together', () => {
  it('the hand-offs asked in one event-loop turn are one statement, and each caller learns it was written', async () => {
    const { writer, statements } = setup();
    await Promise.all([writer.record('eml_1'), writer.record('eml_2'), writer.record('eml_3')]);
    expect(statements).toEqual([['eml_1', 'eml_2', 'eml_3']]);
  });

  it('a hand-off asked after a statement went out goes in the next one', async () => {
    const { writer, statements } = setup();
    await writer.record('eml_1');
    await writer.record('eml_2');
    expect(statements).toEqual([['eml_1'], ['eml_2']]);
  });

  it('hand-offs asked while a statement is being written wait for it, then go together in the next one', async () => {
    const { writer, statements, state } = setup();
    let answer!: () => void;
    state.hold = new Promise((resolve) => (answer = resolve));
    const settled: string[] = [];
    const first = writer.record('eml_1').then(() => settled.push('eml_1'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(statements).toEqual([['eml_1']]);
    const later = ['eml_2', 'eml_3'].map((id) => writer.record(id).then(() => settled.push(id)));
    await new Promise((resolve) => setImmediate(resolve));
    // one statement at a time: the second waits for the database's answer to the first
    expect(statements).toEqual([['eml_1']]);
    expect(settled).toEqual([]);
    answer();
    await Promise.all([first, ...later]);
    expect(statements).toEqual([['eml_1'], ['eml_2', 'eml_3']]);
    expect(settled).toEqual(['eml_1', 'eml_2', 'eml_3']);
  });

  it('a failed statement fails every hand-off in it (none of their dots may go out), and the next is written anew', async () => {
    const { writer, statements, state } = setup();
    state.fail = true;
    const results = await Promise.allSettled([writer.record('eml_1'), writer.record('eml_2')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    state.fail = false;
    await writer.record('eml_3');
    expect(statements).toEqual([['eml_1', 'eml_2'], ['eml_3']]);
  });
});
