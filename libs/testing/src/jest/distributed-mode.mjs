// Before each file of the `distributed` Jest project: `startTopology()` deploys every service as its
// own process over Kafka (libs/testing/src/processes/topology.ts). Jest gives each test file its own
// copy of process.env, so the standalone project's files are not affected.
process.env.HERALD_E2E_MODE = 'distributed';
