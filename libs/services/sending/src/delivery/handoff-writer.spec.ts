import { HandoffWriter } from './handoff-writer.js';

/** A HandoffWriter on a recorded store; `fail` makes its next statement fail. */
function setup() {
  const statements: string[][] = [];
  const state = { fail: false };
  const store = {
    recordHandoffs: async (ids: string[]) => {
      statements.push([...ids]);
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
