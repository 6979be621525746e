import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HealthRegistry } from '@herald/core';
import { createHttpApp } from '@herald/http';
import { Controller, Get, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { stopServing } from './shutdown.js';

@Controller()
class PingController {
  @Get('ping')
  ping(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

interface Answer {
  status: number;
  connection: string | undefined;
}

/** GET /ping through `agent` (a keep-alive one: the connection of the answer before), or on a connection of its own. */
function ping(port: number, agent: http.Agent | false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/ping', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    });
    req.on('error', reject);
  });
}

/**
 * A rolling restart (docs/operations.md, "Shutdown"): after SIGTERM a process keeps serving
 * for SHUTDOWN_DRAIN_MS while its balancers see its readiness fail, so that no request reaching it
 * meanwhile is refused; every answer then closes its connection, so that keep-alive clients (the
 * gateway's pool, a layer-4 balancer's pinned connections) open a new one, to a ready instance.
 */
describe('a stopping process drains before it stops accepting', () => {
  let app: NestFastifyApplication;
  let port: number;
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeEach(async () => {
    app = await createHttpApp(PingModule);
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterEach(async () => {
    keepAlive.destroy();
    await app.close().catch(() => undefined);
  });

  it('serves every request of the drain, not ready and closing each connection, then refuses new ones', async () => {
    const health = new HealthRegistry();
    expect(await ping(port, keepAlive)).toEqual({ status: 200, connection: 'keep-alive' });
    const stopped = stopServing(
      app.getHttpServer() as http.Server,
      health,
      () => app.getHttpAdapter().getInstance().close(),
      1500,
    );
    expect((await health.report()).status).toBe('error');
    // the client's kept-alive connection: served, and told to leave
    expect(await ping(port, keepAlive)).toEqual({ status: 200, connection: 'close' });
    // a balancer that has not seen readiness fail yet opens a new connection: served too
    expect(await ping(port, false)).toEqual({ status: 200, connection: 'close' });
    await stopped;
    await expect(ping(port, false)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
