import { ConfigError, loadConfig } from '@herald/core';
import { DEFAULT_SNS_CERT_URL_PATTERN, WebhooksSettings } from './webhooks.settings.js';

describe('webhook settings (validated at boot, naming the bad variable)', () => {
  it('defaults to Amazon SNS hosts, no topic (every SES notification refused), and no generic secret', () => {
    const s = loadConfig(WebhooksSettings, {});
    expect(s).toMatchObject({ SNS_CERT_URL_PATTERN: DEFAULT_SNS_CERT_URL_PATTERN });
    expect(s.WEBHOOK_SIGNING_SECRET).toBeUndefined();
    expect(s.SES_SNS_TOPIC_ARNS).toBeUndefined();
  });

  it('reads SES_SNS_TOPIC_ARNS as a comma-separated list', () => {
    expect(loadConfig(WebhooksSettings, { SES_SNS_TOPIC_ARNS: 'arn:a, arn:b,,' }).SES_SNS_TOPIC_ARNS).toEqual([
      'arn:a',
      'arn:b',
    ]);
  });

  it('refuses a pattern that is not a regular expression', () => {
    expect(() => loadConfig(WebhooksSettings, { NODE_ENV: 'test', SNS_CERT_URL_PATTERN: '^https://(' })).toThrow(
      /SNS_CERT_URL_PATTERN .*valid regular expression/,
    );
  });

  it("refuses an SNS host pattern other than Amazon's in production (NODE_ENV production or unset), accepts it in tests", () => {
    const loopback = '^https://127\\.0\\.0\\.1:\\d+/';
    expect(() => loadConfig(WebhooksSettings, { SNS_CERT_URL_PATTERN: loopback })).toThrow(
      /SNS_CERT_URL_PATTERN .*tests only/,
    );
    expect(() => loadConfig(WebhooksSettings, { NODE_ENV: 'production', SNS_SUBSCRIBE_URL_PATTERN: loopback })).toThrow(
      /SNS_SUBSCRIBE_URL_PATTERN .*tests only/,
    );
    expect(
      loadConfig(WebhooksSettings, { NODE_ENV: 'test', SNS_CERT_URL_PATTERN: loopback }).SNS_CERT_URL_PATTERN,
    ).toBe(loopback);
    expect(
      loadConfig(WebhooksSettings, { NODE_ENV: 'production', SNS_CERT_URL_PATTERN: DEFAULT_SNS_CERT_URL_PATTERN }),
    ).toBeDefined();
  });

  it('refuses a short WEBHOOK_SIGNING_SECRET', () => {
    expect(() => loadConfig(WebhooksSettings, { WEBHOOK_SIGNING_SECRET: 'short' })).toThrow(ConfigError);
  });
});
