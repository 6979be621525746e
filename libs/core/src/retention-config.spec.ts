import { ConfigError, loadConfig } from './load-config.js';
import { DEFAULT_RETENTION, RetentionConfig, retentionSettings } from './retention-config.js';

const DAY = 86_400_000;

describe('retention settings are validated at start-up', () => {
  it('defaults: the inbox outlives Kafka’s default retention.ms and segment.ms (7 + 7 days), jobs and dead letters are kept', () => {
    const settings = retentionSettings(loadConfig(RetentionConfig, {}));
    expect(settings).toEqual(DEFAULT_RETENTION);
    expect(settings.inboxMs).toBeGreaterThan(14 * DAY);
    expect(settings).toMatchObject({ jobsCompletedMs: DAY, jobsFailedMs: 30 * DAY, deadLettersMs: 30 * DAY });
  });

  it('reads each setting from the environment', () => {
    const settings = retentionSettings(
      loadConfig(RetentionConfig, {
        INBOX_RETENTION_MS: String(9 * DAY),
        DEAD_LETTERS_RETENTION_MS: String(2 * DAY),
        JOBS_COMPLETED_RETENTION_MS: '600000',
        JOBS_FAILED_RETENTION_MS: String(DAY),
        RETENTION_INTERVAL_MS: '60000',
        RETENTION_BATCH_SIZE: '1000',
      }),
    );
    expect(settings).toEqual({
      inboxMs: 9 * DAY,
      deadLettersMs: 2 * DAY,
      jobsCompletedMs: 600_000,
      jobsFailedMs: DAY,
      intervalMs: 60_000,
      batchSize: 1000,
    });
  });

  it('refuses an inbox retention under a day, which no redelivery window is safe with, and names the rule', () => {
    expect(() => loadConfig(RetentionConfig, { INBOX_RETENTION_MS: '3600000' })).toThrow(
      /INBOX_RETENTION_MS \(got "3600000"\): INBOX_RETENTION_MS must be at least 86400000/,
    );
  });

  it('refuses batches outside 100 … 100000 and a retention that is not a number', () => {
    let error: unknown;
    try {
      loadConfig(RetentionConfig, { RETENTION_BATCH_SIZE: '1000000', JOBS_FAILED_RETENTION_MS: 'a month' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.join('\n')).toMatch(/RETENTION_BATCH_SIZE/);
    expect((error as ConfigError).problems.join('\n')).toMatch(/JOBS_FAILED_RETENTION_MS/);
  });
});
