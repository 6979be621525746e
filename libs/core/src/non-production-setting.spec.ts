import { IsOptional, IsString } from 'class-validator';
import { loadConfig } from './load-config.js';
import { TestOnly } from './non-production-setting.js';

class Settings {
  @IsOptional() @TestOnly() @IsString() CLOCK_START?: string;
  @IsOptional() @TestOnly('^https://amazon$') @IsString() URL_PATTERN: string = '^https://amazon$';
}

describe('test-only settings stay out of production configuration', () => {
  it('refuses one when NODE_ENV is production or unset, naming it', () => {
    expect(() => loadConfig(Settings, { CLOCK_START: '2026-01-31T23:59:00Z' })).toThrow(
      /CLOCK_START .*tests only.*unset, i\.e\. production/,
    );
    expect(() => loadConfig(Settings, { NODE_ENV: 'production', URL_PATTERN: '^https://127' })).toThrow(
      /URL_PATTERN .*tests only/,
    );
  });

  it('accepts one when NODE_ENV is test or development', () => {
    expect(loadConfig(Settings, { NODE_ENV: 'test', CLOCK_START: 'x' }).CLOCK_START).toBe('x');
    expect(loadConfig(Settings, { NODE_ENV: 'development', URL_PATTERN: '^https://127' }).URL_PATTERN).toBe(
      '^https://127',
    );
  });

  it('accepts the unset setting, and the production value, in production', () => {
    expect(loadConfig(Settings, { NODE_ENV: 'production' })).toMatchObject({ URL_PATTERN: '^https://amazon$' });
    expect(loadConfig(Settings, { URL_PATTERN: '^https://amazon$' }).CLOCK_START).toBeUndefined();
  });
});
