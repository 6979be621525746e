import { freePort, ServiceProcess } from '@herald/testing';

describe('a service validates its configuration at start-up', () => {
  it('exits 1 naming each missing or bad variable instead of starting', async () => {
    const proc = new ServiceProcess('contacts', await freePort(), {
      DATABASE_URL: 'mysql://nope',
      INTERNAL_JWT_SECRET: 'short',
    });
    await proc.start({ waitReady: false });
    expect(await proc.exitCode()).toBe(1);
    expect(proc.output).toMatch(/DATABASE_URL \(got "mysql:\/\/nope"\): DATABASE_URL must be a postgres:\/\/ URL/);
    expect(proc.output).toMatch(/KAFKA_BROKERS \(missing\)/);
    expect(proc.output).toMatch(/INTERNAL_JWT_SECRET \(got "short"\)/);
  });
});
