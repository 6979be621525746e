import { AnswerCheck, type AnswerContract } from '../contract/answer-check.js';
import { startedProcesses } from '../processes/service-process.js';

declare global {
  var __heraldTestFailed: boolean | undefined;
  /** The worker's OpenAPI contract (environment.mjs). */
  var __heraldAnswerContract: (() => Promise<AnswerContract>) | undefined;
}

const LINES = 40;

/**
 * After a failed test, the last log lines of every service process the test file started (they
 * are captured, never printed while tests pass).
 */
afterEach(() => {
  if (!globalThis.__heraldTestFailed) return;
  for (const proc of startedProcesses()) {
    const tail = proc.output.trimEnd().split('\n').slice(-LINES).join('\n');
    if (tail) console.error(`last ${LINES} log lines of ${proc.app} (${proc.url}):\n${tail}`);
  }
});

/**
 * The contract test over the e2e suite (ADR 0026): every answer a Herald started by the harness
 * gives to `fetch` (the standalone process, the gateway) is checked against docs/openapi.json; a test
 * that received one outside the document fails, naming the request, the status and the problem.
 * Answers received after the last test (in afterAll hooks) fail the file.
 */
if (globalThis.__heraldAnswerContract) {
  const answers = new AnswerCheck(globalThis.__heraldAnswerContract);
  globalThis.fetch = answers.wrap(globalThis.fetch);
  const assertAnswers = async () => {
    const problems = await answers.flush();
    if (problems.length > 0)
      throw new Error(`answers outside the OpenAPI document (docs/openapi.json):\n- ${problems.join('\n- ')}`);
  };
  afterEach(assertAnswers);
  afterAll(assertAnswers);
}
