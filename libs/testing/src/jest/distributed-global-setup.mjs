// Once per Jest run of the `distributed` project, from the built harness in dist/ (Jest's global setup
// runs outside its module mapper): PostgreSQL (global-setup.mjs); a database with every service's
// migrations applied, which each distributed topology copies instead of migrating its own; and ONE
// distributed topology that every non-exclusive `startTopology()` of the run reuses
// (libs/testing/src/processes/shared-topology.ts; its start times go to test-results/figures.log,
// as every topology's do). Their names reach the test workers through
// process.env; the global teardown stops and drops them. HERALD_E2E_SHARED_TOPOLOGY=0 gives every
// file a topology of its own.
import path from 'node:path';
import globalSetup from './global-setup.mjs';

export default async function distributedGlobalSetup() {
  await globalSetup();
  const dist = (file) => path.resolve(process.env.HERALD_DIST ?? 'dist', 'libs/testing/src/processes', file);
  const { prepareTopologyTemplate, TOPOLOGY_TEMPLATE_VARIABLE } = await import(dist('topology.js'));
  const template = await prepareTopologyTemplate();
  process.env[TOPOLOGY_TEMPLATE_VARIABLE] = template.name;
  globalThis.__heraldTestTeardown.push(() => template.drop());
  if (process.env.HERALD_E2E_SHARED_TOPOLOGY === '0') return;
  const { startSharedTopology } = await import(dist('shared-topology.js'));
  const shared = await startSharedTopology();
  process.env.HERALD_E2E_SHARED_TOPOLOGY = shared.handle;
  globalThis.__heraldTestTeardown.push(() => shared.stop());
}
