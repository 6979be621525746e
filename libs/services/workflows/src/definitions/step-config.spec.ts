import { checkStepConfig, delayMs, hasTimeout, webhookBackoffMs } from './step-config.js';

const fields = (type: Parameters<typeof checkStepConfig>[0], config: unknown) =>
  checkStepConfig(type, config).map((p) => p.field);

describe('step config checks, field by field', () => {
  it('SEND_EMAIL needs a templateId; a recipient override is optional; unknown keys are refused', () => {
    expect(fields('SEND_EMAIL', {})).toEqual(['config.templateId']);
    expect(fields('SEND_EMAIL', { templateId: 'tpl_1', to: '{{ data.manager }}' })).toEqual([]);
    expect(fields('SEND_EMAIL', { templateId: 'tpl_1', subjet: 'x' })).toEqual(['config.subjet']);
  });

  it('DELAY: amount > 0, a known unit, one year at most', () => {
    expect(fields('DELAY', { amount: 0, unit: 'days' })).toEqual(['config.amount']);
    expect(fields('DELAY', { amount: 1, unit: 'months' })).toEqual(['config.unit']);
    expect(fields('DELAY', { amount: 53, unit: 'weeks' })).toEqual(['config.amount']);
    expect(fields('DELAY', { amount: 365, unit: 'days' })).toEqual([]);
    expect(fields('DELAY', { amount: 1.5, unit: 'hours' })).toEqual(['config.amount']);
  });

  it('WAIT_FOR_EVENT: an event name and a timeout in seconds', () => {
    expect(fields('WAIT_FOR_EVENT', { timeout: -1 })).toEqual(['config.eventName', 'config.timeout']);
    expect(fields('WAIT_FOR_EVENT', { eventName: 'paid', timeout: 3600 })).toEqual([]);
    expect(fields('WAIT_FOR_EVENT', { eventName: 'paid', timeout: 31_536_001 })).toEqual(['config.timeout']);
  });

  it('WAIT_FOR_EVENT without a timeout is valid: it waits for its event with no deadline (a null timeout is refused: leave it out)', () => {
    expect(fields('WAIT_FOR_EVENT', { eventName: 'paid' })).toEqual([]);
    expect(hasTimeout({ eventName: 'paid' })).toBe(false);
    expect(hasTimeout({ eventName: 'paid', timeout: 60 })).toBe(true);
    expect(fields('WAIT_FOR_EVENT', { eventName: 'paid', timeout: null })).toEqual(['config.timeout']);
  });

  it('CONDITION: a filter, with event.<key> and context.<key> values', () => {
    expect(
      fields('CONDITION', {
        operator: 'AND',
        conditions: [
          { field: 'event.plan', operator: 'equals', value: 'pro' },
          { field: 'context.score', operator: 'gt', value: 3 },
          { field: 'event.purchase', operator: 'triggered' },
          { field: 'data.age', operator: 'gte', value: 18 },
        ],
      }),
    ).toEqual([]);
    expect(
      fields('CONDITION', { operator: 'AND', conditions: [{ field: 'data.age', operator: 'gt', value: 'x' }] }),
    ).toEqual(['config.conditions[0].value']);
  });

  it('WEBHOOK: an http(s) url, a known method, one-line headers, a templated body', () => {
    expect(fields('WEBHOOK', { url: 'ftp://example.com/x' })).toEqual(['config.url']);
    expect(fields('WEBHOOK', { url: 'file:///etc/passwd' })).toEqual(['config.url']);
    expect(fields('WEBHOOK', { url: 'https://example.com/{{ contact.id }}', method: 'TRACE' })).toEqual([
      'config.method',
    ]);
    expect(fields('WEBHOOK', { url: 'https://example.com', headers: { 'X-A': 'a\r\nb' } })).toEqual([
      'config.headers.X-A',
    ]);
    expect(fields('WEBHOOK', { url: 'https://example.com', body: '{{ unclosed' })).toEqual(['config.body']);
    expect(fields('WEBHOOK', { url: 'https://example.com', method: 'POST', body: { id: '{{ contact.id }}' } })).toEqual(
      [],
    );
  });

  it('UPDATE_CONTACT: data and/or subscribed; EXIT: an optional reason', () => {
    expect(fields('UPDATE_CONTACT', {})).toEqual(['config.data']);
    expect(fields('UPDATE_CONTACT', { data: { plan: 'pro' }, subscribed: 'yes' })).toEqual(['config.subscribed']);
    expect(fields('EXIT', { reason: 'done' })).toEqual([]);
    expect(fields('EXIT', { why: 'x' })).toEqual(['config.why']);
  });
});

describe('timer math', () => {
  it('DELAY lengths are fixed: a day is 86,400 s, a week 7 days', () => {
    expect(delayMs({ amount: 90, unit: 'seconds' })).toBe(90_000);
    expect(delayMs({ amount: 2, unit: 'days' })).toBe(172_800_000);
    expect(delayMs({ amount: 1, unit: 'weeks' })).toBe(604_800_000);
  });

  it('webhook retries back off 1 s, 4 s, 16 s, 64 s, capped at 10 minutes', () => {
    expect([1, 2, 3, 4, 10].map((a) => webhookBackoffMs(a, 1000, () => 1))).toEqual([1000, 4000, 16000, 64000, 600000]);
  });

  it('webhook retries back off from WORKFLOW_WEBHOOK_RETRY_BASE_MS when it is set, with the same cap', () => {
    expect([1, 2, 3, 4, 12].map((a) => webhookBackoffMs(a, 50, () => 1))).toEqual([50, 200, 800, 3200, 600000]);
    expect(webhookBackoffMs(3, 1000, () => 0)).toBe(8000); // jittered: at least half the wait
  });
});
