import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { CoreModule } from '@herald/core';
import { HttpPlatformModule } from '@herald/http';
import { Test } from '@nestjs/testing';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DeliveryNotificationSink } from '../delivery/delivery-notification.js';
import { signGenericWebhook } from './generic/generic-signature.js';
import { NodeHttpsClient, SnsHttpClient } from './ses/sns-https-client.js';
import {
  generateKeyPair,
  RecordingSink,
  SES,
  signSns,
  snsNotification,
  snsSubscriptionConfirmation,
  TOPIC_ARN,
  type TestKeyPair,
} from './ses/sns.spec-support.js';
import { WebhooksModule } from './webhooks.module.js';

const SECRET = 'whsec_integration_0123456789';

/** A webhook receipt, or the standard error body. */
type Answer = {
  received?: true;
  duplicate?: boolean;
  ignored?: string;
  confirmed?: boolean;
  results?: { id: string; duplicate: boolean }[];
  error: { code: string; message: string; errors: { field: string; message: string; code: string }[] };
};

/** The webhook controllers on a loopback port, with the settings of the environment as it is now. */
async function startApp(sink: RecordingSink, pair: TestKeyPair): Promise<NestFastifyApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      CoreModule.forRoot({
        mode: 'standalone',
        databaseUrl: 'postgres://unused',
        databasePoolSize: 1,
        internalJwtSecret: 'x'.repeat(32),
        jobLeaseMs: 30_000,
      }),
      HttpPlatformModule,
      WebhooksModule.register({ sink: { provide: DeliveryNotificationSink, useValue: sink } }),
    ],
  })
    .overrideProvider(SnsHttpClient)
    .useValue(new NodeHttpsClient({ ca: pair.certPem, timeoutMs: 2000 }))
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

describe('POST /webhooks/ses and POST /webhooks/generic (controllers, loopback SNS host, recording sink)', () => {
  let app: NestFastifyApplication;
  /** The same controllers started without SES_SNS_TOPIC_ARNS. */
  let closed: NestFastifyApplication | undefined;
  let baseUrl: string;
  let sns: Server;
  let snsBase: string;
  let pair: TestKeyPair;
  let stranger: TestKeyPair;
  const sink = new RecordingSink();
  const snsHits: string[] = [];
  const saved = { ...process.env };

  beforeAll(async () => {
    pair = generateKeyPair();
    stranger = generateKeyPair();
    // The stand-in for sns.<region>.amazonaws.com: serves the signing certificate and takes confirmations.
    sns = createServer({ key: pair.keyPem, cert: pair.certPem }, (req, res) => {
      snsHits.push(req.url!);
      if (req.url === '/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem')
        return res.writeHead(200).end(pair.certPem);
      if (req.url!.includes('Token=expired'))
        return res.writeHead(400, { 'content-type': 'text/xml' }).end('<Error><Code>InvalidParameter</Code></Error>');
      if (req.url!.startsWith('/?Action=ConfirmSubscription&'))
        return res.writeHead(200, { 'content-type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => sns.listen(0, '127.0.0.1', r));
    const port = (sns.address() as AddressInfo).port;
    snsBase = `https://127.0.0.1:${port}`;

    Object.assign(process.env, {
      WEBHOOK_SIGNING_SECRET: SECRET,
      SNS_CERT_URL_PATTERN: `^https://127\\.0\\.0\\.1:${port}/SimpleNotificationService-[A-Za-z0-9]+\\.pem$`,
      SNS_SUBSCRIBE_URL_PATTERN: `^https://127\\.0\\.0\\.1:${port}/\\?Action=ConfirmSubscription&`,
      SES_SNS_TOPIC_ARNS: `${TOPIC_ARN}, arn:aws:sns:eu-west-1:123456789012:other`,
    });

    app = await startApp(sink, pair);
    baseUrl = await app.getUrl();
  });

  afterAll(async () => {
    await app?.close();
    await closed?.close();
    await new Promise((r) => sns?.close(r));
    process.env = saved;
  });

  beforeEach(() => {
    sink.calls.length = 0;
    snsHits.length = 0;
  });

  const certUrl = () => `${snsBase}/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem`;

  /** Posts like SNS does: JSON with Content-Type text/plain. */
  const postSns = async (message: object, contentType = 'text/plain; charset=UTF-8', base = baseUrl) => {
    const res = await fetch(`${base}/webhooks/ses`, {
      method: 'POST',
      body: JSON.stringify(message),
      headers: { 'content-type': contentType, 'x-amz-sns-message-type': (message as { Type: string }).Type },
    });
    return { status: res.status, body: (await res.json()) as Answer };
  };

  describe('SES through SNS', () => {
    it('records a signed permanent bounce posted as text/plain and answers {received, duplicate:false}', async () => {
      const res = await postSns(
        signSns(snsNotification(SES.permanentBounce, 'sns-bounce-1'), pair.keyPem, certUrl(), '1'),
      );
      expect(res).toEqual({ status: 200, body: { received: true, duplicate: false } });
      expect(sink.calls).toEqual([
        expect.objectContaining({
          notificationId: 'sns-bounce-1',
          source: 'ses',
          type: 'bounce',
          bounceType: 'permanent',
          recipients: ['jane@example.org'],
        }),
      ]);
    });

    it('answers duplicate:true when SNS redelivers the same message', async () => {
      const message = signSns(snsNotification(SES.transientBounce, 'sns-bounce-2'), pair.keyPem, certUrl(), '2');
      expect((await postSns(message)).body.duplicate).toBe(false);
      expect((await postSns(message)).body).toEqual({ received: true, duplicate: true });
    });

    it('records complaints and deliveries (also when a proxy re-labels the body application/json)', async () => {
      expect(
        (await postSns(signSns(snsNotification(SES.complaint, 'sns-complaint-1'), pair.keyPem, certUrl(), '2'))).status,
      ).toBe(200);
      expect(
        (
          await postSns(
            signSns(snsNotification(SES.delivery, 'sns-delivery-1'), pair.keyPem, certUrl(), '2'),
            'application/json',
          )
        ).status,
      ).toBe(200);
      expect(sink.calls.map((c) => c.type)).toEqual(['complaint', 'delivery']);
    });

    it('answers 403 to an invalid signature and records nothing', async () => {
      const forged = { ...signSns(snsNotification(SES.permanentBounce, 'sns-forged'), pair.keyPem, certUrl(), '1') };
      forged.Message = JSON.stringify({
        ...SES.permanentBounce,
        bounce: { ...SES.permanentBounce.bounce, bouncedRecipients: [{ emailAddress: 'victim@example.com' }] },
      });
      const res = await postSns(forged);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/signature does not verify/);
      expect(sink.calls).toEqual([]);
    });

    it('answers 403 to a message signed by another key, even with an allowed certificate URL', async () => {
      expect(
        (await postSns(signSns(snsNotification(SES.permanentBounce), stranger.keyPem, certUrl(), '2'))).status,
      ).toBe(403);
      expect(sink.calls).toEqual([]);
    });

    it('answers 403 and fetches nothing when SigningCertURL is not an allowed SNS URL', async () => {
      const res = await postSns(signSns(snsNotification(SES.permanentBounce), pair.keyPem, `${snsBase}/evil.pem`, '2'));
      expect(res.status).toBe(403);
      expect(snsHits).toEqual([]);
      expect(sink.calls).toEqual([]);
    });

    it('answers 403 to a topic outside SES_SNS_TOPIC_ARNS', async () => {
      const m = { ...snsNotification(SES.permanentBounce), TopicArn: 'arn:aws:sns:us-east-1:999999999999:stranger' };
      const res = await postSns(signSns(m, pair.keyPem, certUrl(), '2'));
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/not accepted here/);
      expect(sink.calls).toEqual([]);
    });

    it('confirms a signed SubscriptionConfirmation by GET SubscribeURL', async () => {
      const subscribe = `${snsBase}/?Action=ConfirmSubscription&TopicArn=${TOPIC_ARN}&Token=2336412f37fb687f`;
      const res = await postSns(signSns(snsSubscriptionConfirmation(subscribe), pair.keyPem, certUrl(), '1'));
      expect(res).toEqual({ status: 200, body: { received: true, duplicate: false, confirmed: true } });
      expect(snsHits).toContain(subscribe.replace(snsBase, ''));
      expect(sink.calls).toEqual([]);
    });

    it('refuses (403) to confirm a SubscribeURL on a host that is not SNS, and never calls it', async () => {
      const res = await postSns(
        signSns(
          snsSubscriptionConfirmation(`${snsBase}/steal?Action=ConfirmSubscription&Token=1`),
          pair.keyPem,
          certUrl(),
          '2',
        ),
      );
      expect(res.status).toBe(403);
      expect(snsHits.filter((h) => h.startsWith('/steal'))).toEqual([]);
    });

    it('answers 503 when SNS does not accept the confirmation (so SNS retries)', async () => {
      const subscribe = `${snsBase}/?Action=ConfirmSubscription&TopicArn=${TOPIC_ARN}&Token=expired`;
      const res = await postSns(signSns(snsSubscriptionConfirmation(subscribe), pair.keyPem, certUrl(), '2'));
      expect(snsHits).toContain(subscribe.replace(snsBase, ''));
      expect(res.body.error.message).toMatch(/SNS answered 400/);
      expect(res.status).toBe(503);
    });

    it('receives and ignores the SES topic-setup notification', async () => {
      const res = await postSns(signSns(snsNotification(SES.setup, 'sns-setup'), pair.keyPem, certUrl(), '2'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ received: true, duplicate: false, ignored: expect.any(String) });
      expect(sink.calls).toEqual([]);
    });

    describe('with SES_SNS_TOPIC_ARNS empty (closed by default)', () => {
      let closedUrl: string;
      beforeAll(async () => {
        delete process.env.SES_SNS_TOPIC_ARNS;
        closed = await startApp(sink, pair);
        closedUrl = await closed.getUrl();
      });

      it('refuses (403 FORBIDDEN, the standard error body) a correctly signed notification of any topic and records nothing', async () => {
        const res = await postSns(
          signSns(snsNotification(SES.permanentBounce, 'sns-closed-1'), pair.keyPem, certUrl(), '2'),
          'text/plain; charset=UTF-8',
          closedUrl,
        );
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({
          code: 'FORBIDDEN',
          message: expect.stringMatching(/not accepted here/),
        });
        expect(sink.calls).toEqual([]);
        expect(snsHits).toEqual([]); // refused before the certificate is fetched
      });

      it('refuses (403) a correctly signed SubscriptionConfirmation and never calls its SubscribeURL', async () => {
        const subscribe = `${snsBase}/?Action=ConfirmSubscription&TopicArn=${TOPIC_ARN}&Token=closed`;
        const res = await postSns(
          signSns(snsSubscriptionConfirmation(subscribe), pair.keyPem, certUrl(), '2'),
          'text/plain; charset=UTF-8',
          closedUrl,
        );
        expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
        expect(snsHits).toEqual([]);
      });
    });

    it('answers 400 to a body that is not an SNS message', async () => {
      const res = await fetch(`${baseUrl}/webhooks/ses`, {
        method: 'POST',
        body: 'hello',
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status).toBe(400);
    });
  });

  describe('generic format', () => {
    const post = async (body: string, signature?: string | null, headers: Record<string, string> = {}) => {
      const sig = signature === undefined ? signGenericWebhook(SECRET, body) : signature;
      const res = await fetch(`${baseUrl}/webhooks/generic`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          ...(sig === null ? {} : { 'x-herald-signature': sig }),
          ...headers,
        },
      });
      return { status: res.status, body: (await res.json()) as Answer };
    };

    it('records a signed bounce and answers {received, duplicate}', async () => {
      const body = JSON.stringify({
        id: 'relay-1',
        type: 'bounce',
        email: 'jane@example.org',
        bounceType: 'permanent',
        messageId: '<m1@mail.example.com>',
        reason: '550 5.1.1 no such user',
        occurredAt: '2026-05-04T10:00:00Z',
      });
      expect(await post(body)).toEqual({ status: 200, body: { received: true, duplicate: false } });
      expect(sink.calls).toEqual([
        {
          notificationId: 'relay-1',
          source: 'generic',
          type: 'bounce',
          bounceType: 'permanent',
          recipients: ['jane@example.org'],
          messageId: '<m1@mail.example.com>',
          reason: '550 5.1.1 no such user',
          occurredAt: new Date('2026-05-04T10:00:00Z'),
        },
      ]);
      expect((await post(body)).body.duplicate).toBe(true);
    });

    it('verifies the exact bytes received (odd whitespace and key order are fine)', async () => {
      const body = '{ "type" : "complaint",\n  "email":"bob@example.net",   "id":"relay-ws" }\n';
      expect((await post(body)).status).toBe(200);
      expect(sink.calls[0]).toMatchObject({ notificationId: 'relay-ws', type: 'complaint' });
    });

    it('records a batch in order and reports each item', async () => {
      const body = JSON.stringify([
        { id: 'b-1', type: 'delivery', email: 'a@example.org', emailId: 'em_1' },
        { id: 'b-2', type: 'bounce', email: 'b@example.org', bounceType: 'transient' },
      ]);
      const res = await post(body);
      expect(res).toEqual({
        status: 200,
        body: {
          received: true,
          duplicate: false,
          results: [
            { id: 'b-1', duplicate: false },
            { id: 'b-2', duplicate: false },
          ],
        },
      });
      expect(sink.calls.map((c) => c.notificationId)).toEqual(['b-1', 'b-2']);
      expect(sink.calls[0]).toMatchObject({ emailId: 'em_1', type: 'delivery' });
    });

    it.each([
      ['no signature', null],
      ['a signature made with another secret', signGenericWebhook('not-the-secret-at-all', '{}')],
      [
        'a stale signature',
        signGenericWebhook(
          SECRET,
          JSON.stringify({ id: 'x', type: 'delivery', email: 'a@example.org' }),
          Math.floor(Date.now() / 1000) - 600,
        ),
      ],
    ])('answers 401 to %s and records nothing', async (_, signature) => {
      const res = await post(JSON.stringify({ id: 'x', type: 'delivery', email: 'a@example.org' }), signature);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
      expect(sink.calls).toEqual([]);
    });

    it('answers 401 to a tampered body', async () => {
      const original = JSON.stringify({ id: 't-1', type: 'bounce', email: 'a@example.org', bounceType: 'transient' });
      const res = await post(original.replace('transient', 'permanent'), signGenericWebhook(SECRET, original));
      expect(res.status).toBe(401);
      expect(sink.calls).toEqual([]);
    });

    it('answers 422 with field errors to a signed but invalid body, and records nothing of a batch', async () => {
      const body = JSON.stringify([
        { id: 'ok-1', type: 'delivery', email: 'a@example.org' },
        { id: 'bad-1', type: 'bounce', email: 'not-an-email' },
        { type: 'explosion', email: 'a@example.org' },
      ]);
      const res = await post(body);
      expect(res.status).toBe(422);
      const fields = res.body.error.errors.map((e) => e.field);
      expect(fields).toEqual(expect.arrayContaining(['[1].email', '[1].bounceType', '[2].id', '[2].type']));
      expect(sink.calls).toEqual([]);
    });

    it('answers 422 to an empty array', async () => {
      expect((await post('[]')).status).toBe(422);
    });
  });
});
