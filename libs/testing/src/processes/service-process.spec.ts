import net from 'node:net';
import { FETCH_BLOCKED_PORTS, freePort, portUsable } from './service-process.js';

/** What fetch answers for a loopback port: 'bad port' when it refuses it before connecting. */
async function fetchRefusal(port: number): Promise<string | undefined> {
  try {
    await fetch(`http://127.0.0.1:${port}/`);
    return undefined;
  } catch (err) {
    return String((err as { cause?: { message?: string } }).cause?.message ?? err);
  }
}

describe('service ports', () => {
  it('every port the allocator skips as blocked is one fetch refuses ("bad port")', async () => {
    for (const port of FETCH_BLOCKED_PORTS) expect([port, await fetchRefusal(port)]).toEqual([port, 'bad port']);
  });

  it('a port fetch refuses is never usable, even when nothing listens on it', async () => {
    expect(await portUsable(10080)).toBe(false);
  });

  it('a port something listens on is not usable; once it closes, it is', async () => {
    const port = await freePort();
    const srv = net.createServer();
    await new Promise<void>((resolve) => srv.listen(port, '127.0.0.1', resolve));
    expect(await portUsable(port)).toBe(false);
    await new Promise<void>((resolve) => srv.close(() => resolve()));
    expect(await portUsable(port)).toBe(true);
  });
});
