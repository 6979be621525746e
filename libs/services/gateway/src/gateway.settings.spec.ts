import { loadConfig } from '@herald/core';
import { GatewaySettings } from './gateway.settings.js';

describe('the gateway test-only settings stay out of production configuration', () => {
  it.each([
    ['BILLING_CLOCK_START', '2026-01-31T23:59:00Z'],
    ['STRIPE_API_URL', 'http://127.0.0.1:12111'],
  ])('refuses %s when NODE_ENV is production or unset, accepts it when NODE_ENV is test', (name, value) => {
    expect(() => loadConfig(GatewaySettings, { [name]: value })).toThrow(new RegExp(`${name} .*tests only`));
    expect(() => loadConfig(GatewaySettings, { NODE_ENV: 'production', [name]: value })).toThrow(/tests only/);
    expect(
      (loadConfig(GatewaySettings, { NODE_ENV: 'test', [name]: value }) as unknown as Record<string, unknown>)[name],
    ).toBe(value);
  });
});
