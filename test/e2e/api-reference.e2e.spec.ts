import { e2eMode, startTopology, type Topology } from '@herald/testing';

/**
 * The API reference at `GET /docs` (ADR 0021): the gateway (or the one standalone process) serves
 * Swagger UI and every file it needs without a key, under a Content-Security-Policy that lets the
 * page load nothing from another origin; the page renders `/openapi.json` of the same origin, whose
 * description opens with the two-call quick start (send, then track).
 */
describe(`the API reference page at GET /docs (${e2eMode()})`, () => {
  let herald: Topology;

  beforeAll(async () => {
    herald = await startTopology();
  }, 480_000); // several processes migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
  }, 60_000);

  /** The `src` of every script and the `href` of every stylesheet in `html`. */
  const assetsOf = (html: string): string[] =>
    [
      ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g),
      ...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g),
    ].map((m) => m[1]!);

  /** The policy's directives by name. */
  const directives = (csp: string): Record<string, string[]> =>
    Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name!, values]),
    );

  it('answers 200 text/html without a key, with a policy that allows only this origin', async () => {
    const res = await fetch(`${herald.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = directives(res.headers.get('content-security-policy') ?? '');
    expect(csp['default-src']).toEqual(["'self'"]);
    for (const name of ['script-src', 'style-src', 'connect-src', 'font-src'])
      expect({ [name]: csp[name] }).toEqual({ [name]: ["'self'"] });
    expect(csp['img-src']).toEqual(["'self'", 'data:']); // the stylesheet's icons: no request
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(
      Object.values(csp)
        .flat()
        .filter((v) => /^(https?:|\*|'unsafe-)/.test(v)),
    ).toEqual([]);
  });

  it('serves every script and stylesheet the page references from the same origin, without a key', async () => {
    const html = await (await fetch(`${herald.url}/docs`)).text();
    const assets = assetsOf(html);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      const url = new URL(asset, `${herald.url}/docs`);
      expect(url.origin).toBe(new URL(herald.url).origin);
      const res = await fetch(url);
      const body = await res.text();
      const expected = asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/;
      expect({ asset, status: res.status, type: res.headers.get('content-type') }).toEqual({
        asset,
        status: 200,
        type: expect.stringMatching(expected) as unknown,
      });
      expect(body.length).toBeGreaterThan(0);
    }
    expect((await fetch(`${herald.url}/docs/index.html`)).status).toBe(404); // only the page's own files
  });

  it("renders this origin's /openapi.json, whose description shows the quick start (send, then track)", async () => {
    const html = await (await fetch(`${herald.url}/docs`)).text();
    const start = assetsOf(html).find((a) => a.endsWith('/start.js'))!;
    const script = await (await fetch(new URL(start, herald.url))).text();
    expect(script).toContain("url: '/openapi.json'");
    expect(script).toContain('validatorUrl: null'); // no badge from the online validator
    const res = await fetch(`${herald.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { info: { description: string }; paths: Record<string, unknown> };
    expect(doc.info.description).toContain('Quick start');
    expect(doc.info.description).toMatch(/curl -X POST \$HERALD\/v1\/send[\s\S]*curl -X POST \$HERALD\/v1\/track/);
    expect(Object.keys(doc.paths)).toContain('/docs');
  });
});
