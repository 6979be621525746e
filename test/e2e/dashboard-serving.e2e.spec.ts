import { readFileSync } from 'node:fs';
import { SERVICES } from '@herald/core';
import { e2eMode, startTopology, type Topology } from '@herald/testing';

/**
 * The dashboard (ADR 0028) is served by the edge — the standalone process, or the gateway in
 * distributed mode — at `/`, at its client routes under `/app`, and its files at `/assets/<file>`,
 * under a policy that lets the page load nothing from another origin and run no inline script; it
 * shadows no API route.
 */
describe(`the dashboard served at / (${e2eMode()})`, () => {
  let herald: Topology;

  beforeAll(async () => {
    herald = await startTopology();
  }, 480_000); // several processes migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
  }, 60_000);

  const directives = (csp: string): Record<string, string[]> =>
    Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name!, values]),
    );

  it('answers its page at / and at any client route under /app, with a policy allowing only this origin and no inline script', async () => {
    for (const path of ['/', '/app', '/app/login', '/app/p/some-project/contacts/some-contact']) {
      const res = await fetch(`${herald.url}${path}`);
      const html = await res.text();
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 200,
        type: 'text/html; charset=utf-8',
      });
      expect(html).toContain('<div id="app"></div>');
      const csp = directives(res.headers.get('content-security-policy') ?? '');
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['connect-src']).toEqual(["'self'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(
        Object.values(csp)
          .flat()
          .filter((v) => /^(https?:|\*|'unsafe-|'nonce-|'sha)/.test(v)),
      ).toEqual([]);
      // every script is a file of this origin: none inline
      expect([...html.matchAll(/<script\b([^>]*)>/g)].map((m) => /\bsrc="\/assets\//.test(m[1]!))).not.toContain(false);
    }
  });

  it('serves the files the page references, with their types, cached for good; an unknown file is the standard 404', async () => {
    const html = await (await fetch(`${herald.url}/`)).text();
    const assets = [...html.matchAll(/\b(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    for (const asset of assets) {
      const res = await fetch(`${herald.url}${asset}`);
      expect({ asset, status: res.status, type: res.headers.get('content-type') }).toEqual({
        asset,
        status: 200,
        type: asset.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      });
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect((await res.text()).length).toBeGreaterThan(0);
    }
    const missing = await fetch(`${herald.url}/assets/nothing-here.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBeDefined();
    expect((await fetch(`${herald.url}/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('shadows no API route: the API, its document and its reference answer as before, and other unknown paths keep the API 404', async () => {
    const contacts = await fetch(`${herald.url}/contacts`);
    expect(contacts.status).toBe(401);
    expect(contacts.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await fetch(`${herald.url}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${herald.url}/docs`)).status).toBe(200);
    expect((await fetch(`${herald.url}/config`)).status).toBe(200);
    // the page is GET only: another method there is answered as on any unknown path (the standard error body)
    const post = (path: string) =>
      fetch(`${herald.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const [onPage, elsewhere] = await Promise.all([post('/app/login'), post('/no-such-page')]);
    expect(onPage.status).toBeGreaterThanOrEqual(400);
    expect(onPage.status).toBe(elsewhere.status);
    expect(onPage.headers.get('content-type')).toMatch(/^application\/json/);
    const unknown = await fetch(`${herald.url}/no-such-page`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('owns paths no API route uses: neither the routing table nor the OpenAPI document has a path under /, /app or /assets', () => {
    const dashboard = (p: string) => p === '/' || /^\/(app|assets)(\/|$)/.test(p);
    const prefixes = SERVICES.flatMap((s) => s.routes.map((r) => r.prefix));
    const documented = Object.keys(
      (JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as { paths: object })
        .paths,
    );
    expect([...prefixes, ...documented].filter(dashboard)).toEqual([]);
    expect(prefixes.length).toBeGreaterThan(5);
  });
});
