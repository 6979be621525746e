import { ConfigError, loadConfig, requiredVariables } from './load-config.js';
import { ServiceConfig, StandaloneConfig } from './service-config.js';

describe('configuration is validated at start-up', () => {
  it('names every missing required variable of a service', () => {
    try {
      loadConfig(ServiceConfig, {});
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as ConfigError).message;
      expect(message).toMatch(/DATABASE_URL \(missing\)/);
      expect(message).toMatch(/KAFKA_BROKERS \(missing\)/);
      expect(message).toMatch(/INTERNAL_JWT_SECRET \(missing\)/);
    }
  });

  it('names a bad value and says why', () => {
    const load = () =>
      loadConfig(ServiceConfig, {
        DATABASE_URL: 'mysql://x',
        KAFKA_BROKERS: 'k:9092',
        INTERNAL_JWT_SECRET: 'short',
        PORT: 'eighty',
      });
    expect(load).toThrow(/DATABASE_URL \(got "mysql:\/\/x"\): DATABASE_URL must be a postgres:\/\/ URL/);
    expect(load).toThrow(/INTERNAL_JWT_SECRET \(got "short"\): INTERNAL_JWT_SECRET must be at least 32 characters/);
    expect(load).toThrow(/PORT \(got "eighty"\): .*integer/);
  });

  it('converts numbers and applies defaults', () => {
    const cfg = loadConfig(ServiceConfig, {
      DATABASE_URL: 'postgres://h/db',
      KAFKA_BROKERS: 'a:1,b:2',
      INTERNAL_JWT_SECRET: 'x'.repeat(32),
      PORT: '4100',
    });
    expect(cfg.PORT).toBe(4100);
    expect(cfg.DATABASE_POOL_SIZE).toBe(10);
    expect(cfg.LOG_LEVEL).toBe('info');
  });

  it('needs nothing to run standalone', () => {
    const cfg = loadConfig(StandaloneConfig, {});
    expect(cfg.PORT).toBe(3000);
    expect(cfg.DATABASE_URL).toBeUndefined();
  });

  it('lists the variables a deployment must set', () => {
    expect(requiredVariables(ServiceConfig)).toEqual(['DATABASE_URL', 'INTERNAL_JWT_SECRET', 'KAFKA_BROKERS']);
    expect(requiredVariables(StandaloneConfig)).toEqual([]);
  });
});
