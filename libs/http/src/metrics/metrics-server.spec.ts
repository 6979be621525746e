import { createServer } from 'node:net';
import { loadConfig } from '@herald/core';
import { MetricsServer } from './metrics-server.js';
import { collectProcessMetrics } from './metrics.js';
import { DEFAULT_METRICS_PORT, MetricsSettings } from './metrics.settings.js';

describe('the metrics port (METRICS_PORT): Prometheus text on a port of its own', () => {
  let server: MetricsServer;
  beforeAll(async () => {
    collectProcessMetrics();
    server = await MetricsServer.listen(0, '127.0.0.1');
  });
  afterAll(() => server.close());

  it('answers GET /metrics with the registry in the Prometheus text format', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toMatch(/^herald_process_resident_memory_bytes \d+/m);
  });

  it('answers 404 to any other path or method (it serves nothing else)', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/health/ready`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST', body: 'x' })).status).toBe(404);
  });

  it('fails to start, naming METRICS_PORT, when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(MetricsServer.listen(port, '127.0.0.1')).rejects.toThrow(`METRICS_PORT ${port} on 127.0.0.1`);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });

  it('defaults METRICS_PORT to 9464 and refuses a value that is not a port', () => {
    expect(loadConfig(MetricsSettings, {}).METRICS_PORT).toBe(DEFAULT_METRICS_PORT);
    expect(loadConfig(MetricsSettings, { METRICS_PORT: '9100' }).METRICS_PORT).toBe(9100);
    expect(() => loadConfig(MetricsSettings, { METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig(MetricsSettings, { METRICS_PORT: 'metrics' })).toThrow(/METRICS_PORT/);
  });
});
