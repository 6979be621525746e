import { internalBaseUrl, type HeraldRuntime } from './runtime.js';

const base: HeraldRuntime = {
  mode: 'standalone',
  databaseUrl: 'postgres://x',
  databasePoolSize: 1,
  internalJwtSecret: 's',
  jobLeaseMs: 1,
};

describe('internalBaseUrl', () => {
  it('standalone: a call made before the process listens waits for its own URL instead of failing', async () => {
    let listened!: (url: string) => void;
    const runtime: HeraldRuntime = { ...base, listening: new Promise<string>((r) => (listened = r)) };
    const early = internalBaseUrl(runtime, undefined, 'SENDING_URL');
    runtime.selfUrl = 'http://127.0.0.1:4321';
    listened(runtime.selfUrl);
    await expect(early).resolves.toBe('http://127.0.0.1:4321');
    await expect(internalBaseUrl(runtime, 'http://elsewhere:1', 'SENDING_URL')).resolves.toBe('http://127.0.0.1:4321');
  });

  it('distributed: the configured URL, and an error naming the variable when it is missing', async () => {
    const runtime: HeraldRuntime = { ...base, mode: 'distributed' };
    await expect(internalBaseUrl(runtime, 'http://sending:3000', 'SENDING_URL')).resolves.toBe('http://sending:3000');
    await expect(internalBaseUrl(runtime, undefined, 'SENDING_URL')).rejects.toThrow('SENDING_URL is not configured');
  });
});
