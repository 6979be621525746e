// Jest's Node environment, plus what the harness needs in every test file:
// - whether the current test failed (so that `after-env.ts` shows the last log lines of the
//   processes it started, and stays quiet otherwise);
// - the OpenAPI contract the answers of Herald are checked against (`after-env.ts`): loaded from the
//   built harness (dist/, as the global setups do) when a file first needs it, and kept for the
//   worker's life, so each response schema is compiled once per worker, not once per test file.
import path from 'node:path';
import { TestEnvironment } from 'jest-environment-node';

let contract;
const answerContract = () =>
  (contract ??= import(
    path.resolve(process.env.HERALD_DIST ?? 'dist', 'libs/testing/src/contract/openapi-contract.js')
  ).then(({ OpenApiContract }) => OpenApiContract.load()));

export default class HeraldTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.__heraldAnswerContract = answerContract;
  }

  async handleTestEvent(event) {
    if (event.name === 'test_start') this.global.__heraldTestFailed = false;
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') this.global.__heraldTestFailed = true;
  }
}
