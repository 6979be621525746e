import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, defineCalls } from '@herald/internal-contracts';
import {
  DomainError,
  positionsContext,
  recordWrite,
  RequestPositions,
  type HeraldRuntime,
  type Observed,
} from '@herald/core';
import { HeraldException } from '@herald/http';
import { IsInt, IsString, Min } from 'class-validator';
import { CallHandlers } from './call-handlers.js';
import { InternalCalls } from './internal-calls.js';

class ProbeRequest {
  @IsString() name!: string;
  @IsInt() @Min(1) count!: number;
}

const Probe = defineCalls('probe', {
  greet: call<ProbeRequest, { text: string; at?: string }>({ request: ProbeRequest, observes: ['contacts'] }),
  parsed: call<{ n: number }, { n: number }>({
    parse: (raw) =>
      typeof (raw as { n?: unknown })?.n === 'number'
        ? { ok: true, value: { n: (raw as { n: number }).n } }
        : { ok: false, problems: [{ field: 'n', message: 'n must be a number', code: 'invalid_type' }] },
  }),
});

const runtime = (mode: HeraldRuntime['mode'], peerUrls: Record<string, string> = {}): HeraldRuntime => ({
  mode,
  databaseUrl: 'postgres://unused',
  databasePoolSize: 1,
  internalJwtSecret: 's'.repeat(32),
  jobLeaseMs: 1000,
  peerUrls,
});

function standalone(handler: (projectId: string, request: ProbeRequest) => Promise<{ text: string; at?: string }>) {
  const observed: { reader: string; projectId: string; observed: Observed; producers: readonly string[] }[] = [];
  const handlers = new CallHandlers({
    observe: async (reader, projectId, o, producers) =>
      void observed.push({ reader, projectId, observed: o, producers }),
  });
  handlers.serve(Probe, { greet: handler, parsed: async (_p, r) => r });
  const client = new InternalCalls(runtime('standalone'), handlers).client(Probe, 'caller');
  return { client, observed };
}

describe('internal calls in standalone mode: the owner answers in process, as it would over HTTP', () => {
  it("runs the owner's handler with the request checked and transformed by the contract (unknown keys stripped)", async () => {
    const seen: unknown[] = [];
    const { client } = standalone(async (projectId, r) => {
      seen.push({ projectId, r: { ...r } });
      return { text: `hello ${r.name}` };
    });
    const request = { name: 'ada', count: 2, extra: 'dropped' } as ProbeRequest;
    await expect(client.greet('prj_1', request)).resolves.toEqual({ text: 'hello ada' });
    expect(seen).toEqual([{ projectId: 'prj_1', r: { name: 'ada', count: 2 } }]);
  });

  it('refuses a request that breaks the contract with field errors, and the owner never sees it', async () => {
    let called = false;
    const { client } = standalone(async () => {
      called = true;
      return { text: '' };
    });
    const refusal = client.greet('prj_1', { name: 'ada', count: 0 });
    await expect(refusal).rejects.toMatchObject({
      kind: 'invalid',
      code: 'VALIDATION_ERROR',
      details: { errors: [expect.objectContaining({ field: 'count' })] },
    });
    await expect(client.parsed('prj_1', { n: 'x' } as never)).rejects.toMatchObject({
      details: { errors: [{ field: 'n', message: 'n must be a number', code: 'invalid_type' }] },
    });
    expect(called).toBe(false);
  });

  it("passes an owner's refusal through with its kind, code and details; anything else is the owner unavailable", async () => {
    const notFound = new DomainError('not_found', 'THING_NOT_FOUND', 'Thing t was not found', {
      suggestion: 'Check it.',
    });
    await expect(standalone(() => Promise.reject(notFound)).client.greet('p', { name: 'a', count: 1 })).rejects.toBe(
      notFound,
    );
    await expect(
      standalone(() => Promise.reject(new HeraldException(409, 'CONFLICT', 'Taken'))).client.greet('p', {
        name: 'a',
        count: 1,
      }),
    ).rejects.toMatchObject({ kind: 'conflict', code: 'CONFLICT', message: 'Taken' });
    await expect(
      standalone(() => Promise.reject(new Error('relation "x" does not exist'))).client.greet('p', {
        name: 'a',
        count: 1,
      }),
    ).rejects.toMatchObject({
      kind: 'unavailable',
      code: 'SERVICE_UNAVAILABLE',
      message: 'The probe service is unavailable',
    });
  });

  it("waits for the owner's copies of what the caller must observe, and the owner's writes join the caller's", async () => {
    const { client, observed } = standalone(async (projectId) => {
      recordWrite([projectId], 'probe', 42);
      return { text: 'ok' };
    });
    const caller = new RequestPositions();
    caller.projectId = 'prj_1';
    caller.observed = { contacts: 7 };
    caller.wrote(['prj_1'], 'sending', 3);
    await positionsContext.run(caller, () => client.greet('prj_1', { name: 'a', count: 1 }));
    expect(observed).toEqual([
      { reader: 'probe', projectId: 'prj_1', observed: { contacts: 7, sending: 3 }, producers: ['contacts'] },
    ]);
    expect(caller.written.get('prj_1')).toEqual({ sending: 3, probe: 42 });
  });

  it('answers JSON values as HTTP would carry them (a Date is its ISO string)', async () => {
    const at = new Date('2026-11-29T10:00:00.000Z');
    const { client } = standalone(async () => ({ text: 'ok', at: at as unknown as string }));
    await expect(client.greet('p', { name: 'a', count: 1 })).resolves.toEqual({
      text: 'ok',
      at: '2026-11-29T10:00:00.000Z',
    });
  });

  it("tells the owner that a durable commit follows only when the caller promises one (its commits may then skip the disk's wait)", async () => {
    const promised: (boolean | undefined)[] = [];
    const handlers = new CallHandlers({ observe: async () => undefined });
    handlers.serve(Probe, {
      greet: async (_p, _r, context) => (promised.push(context.durableCommitFollows), { text: '' }),
      parsed: async (_p, r) => r,
    });
    const client = new InternalCalls(runtime('standalone'), handlers).client(Probe, 'caller');
    await client.greet('p', { name: 'a', count: 1 }, { durableCommitFollows: true });
    await client.greet('p', { name: 'a', count: 1 });
    expect(promised).toEqual([true, false]);
  });

  it('an owner answers every call of its group, once', () => {
    const handlers = new CallHandlers({ observe: async () => undefined });
    expect(() => handlers.serve(Probe, { greet: async () => ({ text: '' }) } as never)).toThrow(
      'probe.parsed has no handler',
    );
    handlers.serve(Probe, { greet: async () => ({ text: '' }), parsed: async (_p, r) => r });
    expect(() => handlers.serve(Probe, { greet: async () => ({ text: '' }), parsed: async (_p, r) => r })).toThrow(
      'probe.greet is answered twice',
    );
  });
});

describe('internal calls in distributed mode: the request is checked here, then sent to the owner over HTTP', () => {
  it("posts the checked request to the owner's /internal/calls/<name> with a service principal and the positions to observe", async () => {
    const received: { url?: string; headers: IncomingMessage['headers']; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ url: req.url, headers: req.headers, body });
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-herald-written', JSON.stringify({ prj_1: { probe: 9 } }));
        res.end(JSON.stringify({ text: 'over http' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const handlers = new CallHandlers({ observe: async () => undefined });
      const client = new InternalCalls(runtime('distributed', { probe: url }), handlers).client(Probe, 'caller');
      const caller = new RequestPositions();
      caller.projectId = 'prj_1';
      caller.observed = { contacts: 5 };
      const answer = await positionsContext.run(caller, () =>
        client.greet('prj_1', { name: 'ada', count: 1, extra: 'x' } as ProbeRequest, { requestId: 'req_1' }),
      );
      expect(answer).toEqual({ text: 'over http' });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        url: '/internal/calls/probe.greet',
        headers: { 'x-request-id': 'req_1', 'x-herald-positions': 'contacts=5' },
      });
      expect(received[0]!.headers['x-herald-principal']).toEqual(expect.any(String));
      expect(JSON.parse(received[0]!.body)).toEqual({ name: 'ada', count: 1 });
      expect(caller.written.get('prj_1')).toEqual({ probe: 9 });
      await expect(client.greet('prj_1', { name: 'ada', count: -1 })).rejects.toMatchObject({ kind: 'invalid' });
      expect(received).toHaveLength(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it("answers the owner unavailable, naming no internal detail, when the owner's URL is not configured", async () => {
    const client = new InternalCalls(
      runtime('distributed'),
      new CallHandlers({ observe: async () => undefined }),
    ).client(Probe, 'caller');
    await expect(client.greet('prj_1', { name: 'a', count: 1 })).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'The probe service is unavailable',
    });
  });
});
