import { SHARED_TOPOLOGY_ENV, startTopology, type SharedTopologyHandle, type Topology } from './topology.js';

/** The run's shared distributed topology, as the Jest global setup holds it. */
export interface SharedTopology {
  /** JSON for HERALD_E2E_SHARED_TOPOLOGY: what the test files need to reach it. */
  handle: string;
  topology: Topology;
  stop(): Promise<void>;
}

/**
 * Starts the distributed topology that every non-exclusive `startTopology()` of the run reuses
 * (called once by jest/distributed-global-setup.mjs, from dist/). Its spawn-to-ready times are test
 * figures of the run, reported by `startTopology`.
 */
export async function startSharedTopology(): Promise<SharedTopology> {
  const topology = await startTopology({ mode: 'distributed', env: { ...SHARED_TOPOLOGY_ENV }, exclusive: true });
  const handle: SharedTopologyHandle = {
    url: topology.url,
    db: { url: topology.db.url, name: topology.db.name },
    spawnToReadyMs: topology.spawnToReadyMs,
  };
  return {
    handle: JSON.stringify(handle),
    topology,
    stop: () => topology.stop(),
  };
}
