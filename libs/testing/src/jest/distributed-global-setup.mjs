// Once per Jest run of the `distributed` project: PostgreSQL (global-setup.mjs), then ONE distributed
// topology that every non-exclusive `startTopology()` of the run reuses (libs/testing
// src/processes/shared-topology.ts), started from the built harness in dist/ (Jest's global setup
// runs outside its module mapper). Its address reaches the test workers through process.env; the
// global teardown stops it. HERALD_E2E_SHARED_TOPOLOGY=0 gives every file its own topology instead.
import path from 'node:path';
import globalSetup from './global-setup.mjs';

export default async function distributedGlobalSetup() {
  await globalSetup();
  if (process.env.HERALD_E2E_SHARED_TOPOLOGY === '0') return;
  const { startSharedTopology } = await import(
    path.resolve(process.env.HERALD_DIST ?? 'dist', 'libs/testing/src/processes/shared-topology.js')
  );
  const shared = await startSharedTopology();
  process.env.HERALD_E2E_SHARED_TOPOLOGY = shared.handle;
  process.stdout.write(`\nherald: ${shared.description}\n`);
  globalThis.__heraldTestTeardown.push(() => shared.stop());
}
