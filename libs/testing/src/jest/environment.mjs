// Jest's Node environment, plus one fact the harness needs after a test: whether it failed (so that
// `after-env.ts` shows the last log lines of the processes it started, and stays quiet otherwise).
import { TestEnvironment } from 'jest-environment-node';

export default class HeraldTestEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name === 'test_start') this.global.__heraldTestFailed = false;
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') this.global.__heraldTestFailed = true;
  }
}
