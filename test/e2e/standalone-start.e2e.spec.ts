import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { accountWithProject, bearer, eventually, freePort, ServiceProcess, testReport } from '@herald/testing';

/**
 * What a newcomer gets from `npm start` with no DATABASE_URL: an embedded PostgreSQL in the data
 * directory, migrations applied, ready within 30 s; a second start reuses the same data.
 */
describe('standalone start with embedded PostgreSQL', () => {
  let dataDir: string;
  let herald: ServiceProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-standalone-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    await herald?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('becomes ready on a fresh data directory (initdb, migrations) and keeps its data across a restart', async () => {
    const port = await freePort();
    const env = { HERALD_DATA_DIR: dataDir };
    herald = new ServiceProcess('standalone', port, env);
    await herald.start({ waitReady: false });
    const firstMs = await herald.waitReady(120_000);

    const headers = bearer((await accountWithProject(herald.url)).secretKey);
    const track = await fetch(`${herald.url}/v1/track`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'keep@example.com', event: 'kept' }),
    });
    expect(track.status).toBe(200);
    expect(await herald.stop()).toBe(0);

    herald = new ServiceProcess('standalone', port, env);
    await herald.start({ waitReady: false });
    const secondMs = await herald.waitReady(120_000);
    const stats = await (await fetch(`${herald.url}/events/stats`, { headers })).json();
    expect(stats).toMatchObject({ total: 1, events: [{ name: 'kept', count: 1 }] });
    testReport(`standalone cold start: first ${firstMs} ms (initdb + migrations), second ${secondMs} ms`);
  }, 300_000);

  type LogLine = { level?: string; msg?: string; err?: string };
  /** The JSON log lines of the process the test above started (a line cut by the capture's window is skipped). */
  const logLines = (): LogLine[] => {
    if (!herald) throw new Error('this test reads the process the test above started');
    return herald.output.split('\n').flatMap((line): LogLine[] => {
      try {
        return line.startsWith('{') ? [JSON.parse(line) as LogLine] : [];
      } catch {
        return [];
      }
    });
  };

  it('says once at start that SES_SNS_TOPIC_ARNS is empty, so /webhooks/ses refuses every notification', () => {
    const warnings = logLines().filter((l) => l.msg?.includes('SES_SNS_TOPIC_ARNS is empty'));
    expect(warnings.map((l) => [l.level, l.msg?.split(' (')[0]])).toEqual([
      ['warn', 'SES_SNS_TOPIC_ARNS is empty: /webhooks/ses refuses every notification'],
    ]);
  });

  it('refuses (403 FORBIDDEN) SES notifications and subscription confirmations while SES_SNS_TOPIC_ARNS is empty, one warn line each', async () => {
    const before = logLines().length;
    const envelope = {
      MessageId: 'd6c8f1b4-0000-4000-8000-000000000001',
      TopicArn: 'arn:aws:sns:eu-west-1:123456789012:ses-feedback',
      Message: '{}',
      Timestamp: new Date().toISOString(),
      SignatureVersion: '2',
      Signature: 'c2lnbmF0dXJl',
      SigningCertURL: 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem',
    };
    const messages = [
      { ...envelope, Type: 'Notification' },
      {
        ...envelope,
        Type: 'SubscriptionConfirmation',
        Token: 'token',
        SubscribeURL: 'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&Token=token',
      },
    ];
    for (const message of messages) {
      const res = await fetch(`${herald!.url}/webhooks/ses`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': message.Type },
        body: JSON.stringify(message),
      });
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, body.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    const refused = await eventually(
      () => {
        const lines = logLines()
          .slice(before)
          .filter((l) => l.msg === 'SNS message from a topic not in SES_SNS_TOPIC_ARNS refused');
        return lines.length >= 2 && lines;
      },
      { message: 'the two refusals were not logged' },
    );
    expect(refused.map((l) => l.level)).toEqual(['warn', 'warn']);
  });

  it('answers calls to the unconfigured generic webhook 503 SERVICE_UNAVAILABLE and logs no error or stack trace for them (anyone can call it)', async () => {
    const before = logLines().length;
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${herald!.url}/webhooks/generic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: `n${i}`, type: 'bounce', email: 'x@example.com' }),
      });
      expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([
        503,
        'SERVICE_UNAVAILABLE',
      ]);
    }
    // what the five answers logged (whatever its level): wait until all five lines have arrived
    const lines = await eventually(
      () => {
        const answered = logLines()
          .slice(before)
          .filter((l) => /^request (answered 503|failed)$/.test(l.msg ?? ''));
        return answered.length >= 5 && answered;
      },
      { message: 'the five answers were not logged' },
    );
    expect(lines.map((l) => l.level)).toEqual(['warn', 'warn', 'warn', 'warn', 'warn']);
    expect(lines.every((l) => l.err === undefined)).toBe(true);
    expect(herald!.output).not.toMatch(/generic-webhook\.service\.js:\d+/);
  });
});
