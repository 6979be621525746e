import { X509Certificate } from 'node:crypto';
import type { SnsHttpClient } from './sns-https-client.js';
import { parseSnsMessage, SnsMessageError, type SnsMessage } from './sns-message.js';
import { snsStringToSign, verifySnsSignature } from './sns-signature.js';
import { SnsVerificationError, SnsVerifier } from './sns-verifier.js';
import { DEFAULT_SNS_CERT_URL_PATTERN } from '../webhooks.settings.js';
import {
  generateKeyPair,
  SES,
  signSns,
  snsNotification,
  snsSubscriptionConfirmation,
  TOPIC_ARN,
  type TestKeyPair,
} from './sns.spec-support.js';

const CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem';

describe('SNS canonical string to sign', () => {
  it('lists Message, MessageId, Subject, Timestamp, TopicArn, Type of a notification, name and value on their own lines', () => {
    const m = {
      ...snsNotification({ a: 1 }, 'mid-1', 'Amazon SES Email Event Notification'),
      Signature: '',
      SignatureVersion: '1',
      SigningCertURL: CERT_URL,
    } as SnsMessage;
    expect(snsStringToSign(m)).toBe(
      `Message\n{"a":1}\nMessageId\nmid-1\nSubject\nAmazon SES Email Event Notification\nTimestamp\n2026-05-04T10:00:01.123Z\nTopicArn\n${TOPIC_ARN}\nType\nNotification\n`,
    );
  });

  it('leaves Subject out of a notification that has none', () => {
    const m = {
      ...snsNotification({ a: 1 }, 'mid-1'),
      Signature: '',
      SignatureVersion: '1',
      SigningCertURL: CERT_URL,
    } as SnsMessage;
    expect(snsStringToSign(m)).not.toContain('Subject');
    expect(snsStringToSign(m).startsWith('Message\n{"a":1}\nMessageId\nmid-1\nTimestamp\n')).toBe(true);
  });

  it('lists Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type of a subscription confirmation', () => {
    const m = {
      ...snsSubscriptionConfirmation('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=x'),
      Signature: '',
      SignatureVersion: '1',
      SigningCertURL: CERT_URL,
    } as SnsMessage;
    const c = m as SnsMessage & { Token: string; SubscribeURL: string };
    expect(snsStringToSign(m)).toBe(
      `Message\n${c.Message}\nMessageId\n${c.MessageId}\nSubscribeURL\n${c.SubscribeURL}\nTimestamp\n${c.Timestamp}\nToken\n${c.Token}\nTopicArn\n${TOPIC_ARN}\nType\nSubscriptionConfirmation\n`,
    );
  });

  it('keeps newlines inside values as they are (the Message of a confirmation has one)', () => {
    const m = {
      ...snsSubscriptionConfirmation('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=x'),
      Signature: '',
      SignatureVersion: '1',
      SigningCertURL: CERT_URL,
    } as SnsMessage;
    expect(snsStringToSign(m)).toContain(
      `Message\nYou have chosen to subscribe to the topic ${TOPIC_ARN}.\nTo confirm`,
    );
  });
});

describe('SNS message envelope', () => {
  it('parses the text/plain JSON string SNS posts', () => {
    const m = parseSnsMessage(
      JSON.stringify({
        ...snsNotification(SES.delivery),
        Signature: 'c2ln',
        SignatureVersion: '2',
        SigningCertURL: CERT_URL,
      }),
    );
    expect(m.Type).toBe('Notification');
  });

  it.each([
    ['not JSON', 'hello'],
    ['an array', '[]'],
    ['an unknown Type', JSON.stringify({ Type: 'Surprise' })],
    [
      'a notification without Signature',
      JSON.stringify({ ...snsNotification(SES.delivery), SignatureVersion: '1', SigningCertURL: CERT_URL }),
    ],
    [
      'a confirmation without SubscribeURL',
      JSON.stringify({
        ...snsNotification(SES.delivery),
        Type: 'SubscriptionConfirmation',
        Token: 't',
        Signature: 'c2ln',
        SignatureVersion: '1',
        SigningCertURL: CERT_URL,
      }),
    ],
    [
      'SignatureVersion 3',
      JSON.stringify({
        ...snsNotification(SES.delivery),
        Signature: 'c2ln',
        SignatureVersion: '3',
        SigningCertURL: CERT_URL,
      }),
    ],
  ])('refuses %s', (_, body) => {
    expect(() => parseSnsMessage(body)).toThrow(SnsMessageError);
  });
});

describe('SNS signature verification (locally generated key and self-signed certificate)', () => {
  let pair: TestKeyPair;
  let other: TestKeyPair;
  let cert: X509Certificate;

  beforeAll(() => {
    pair = generateKeyPair();
    other = generateKeyPair();
    cert = new X509Certificate(pair.certPem);
  });

  it.each(['1', '2'] as const)(
    'accepts a SignatureVersion %s notification signed by the certificate key',
    (version) => {
      expect(
        verifySnsSignature(signSns(snsNotification(SES.permanentBounce), pair.keyPem, CERT_URL, version), cert),
      ).toBe(true);
    },
  );

  it('accepts a signed subscription confirmation', () => {
    const m = signSns(
      snsSubscriptionConfirmation('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=x'),
      pair.keyPem,
      CERT_URL,
      '2',
    );
    expect(verifySnsSignature(m, cert)).toBe(true);
  });

  it.each([
    ['a changed Message', (m: SnsMessage) => ({ ...m, Message: m.Message.replace('Permanent', 'Transient') })],
    ['a changed MessageId', (m: SnsMessage) => ({ ...m, MessageId: 'other' })],
    ['a changed TopicArn', (m: SnsMessage) => ({ ...m, TopicArn: 'arn:aws:sns:us-east-1:999999999999:evil' })],
    ['an added Subject', (m: SnsMessage) => ({ ...m, Subject: 'injected' })],
    ['a changed Timestamp', (m: SnsMessage) => ({ ...m, Timestamp: '2030-01-01T00:00:00.000Z' })],
    ['a v1 signature claimed as v2', (m: SnsMessage) => ({ ...m, SignatureVersion: '2' as const })],
    ['an empty signature', (m: SnsMessage) => ({ ...m, Signature: '' })],
    ['garbage for a signature', (m: SnsMessage) => ({ ...m, Signature: 'not base64 at all!!' })],
  ])('refuses %s', (_, tamper) => {
    const m = signSns(snsNotification(SES.permanentBounce), pair.keyPem, CERT_URL, '1');
    expect(verifySnsSignature(tamper(m) as SnsMessage, cert)).toBe(false);
  });

  it('refuses a message signed by another key', () => {
    expect(verifySnsSignature(signSns(snsNotification(SES.permanentBounce), other.keyPem, CERT_URL, '1'), cert)).toBe(
      false,
    );
  });

  describe('SnsVerifier: certificate URL, fetching and caching', () => {
    const fetcher = (pem: () => string, status = 200) => {
      const calls: string[] = [];
      const http: SnsHttpClient = { get: async (url: string) => (calls.push(url), { status, body: pem() }) };
      return { http, calls };
    };

    it('verifies with the certificate fetched from SigningCertURL and fetches it once for many messages', async () => {
      const { http, calls } = fetcher(() => pair.certPem);
      const verifier = new SnsVerifier(http, DEFAULT_SNS_CERT_URL_PATTERN);
      await Promise.all(
        [1, 2, 3].map((i) =>
          verifier.verify(signSns(snsNotification(SES.delivery, `m-${i}`), pair.keyPem, CERT_URL, '2')),
        ),
      );
      await verifier.verify(signSns(snsNotification(SES.delivery, 'm-4'), pair.keyPem, CERT_URL, '1'));
      expect(calls).toEqual([CERT_URL]);
    });

    it('refuses a bad signature with SnsVerificationError', async () => {
      const { http } = fetcher(() => pair.certPem);
      const verifier = new SnsVerifier(http, DEFAULT_SNS_CERT_URL_PATTERN);
      const m = signSns(snsNotification(SES.delivery), other.keyPem, CERT_URL, '2');
      await expect(verifier.verify(m)).rejects.toThrow(SnsVerificationError);
    });

    it.each([
      'http://sns.us-east-1.amazonaws.com/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem',
      'https://sns.us-east-1.amazonaws.com.evil.example/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem',
      'https://evil.example/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem',
      'https://evil.example/?u=https://sns.us-east-1.amazonaws.com/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem',
      'https://sns.us-east-1.amazonaws.com@evil.example/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem',
      'https://user@sns.us-east-1.amazonaws.com/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem',
      'https://sns.us-east-1.amazonaws.com/other.pem',
      'https://s3.amazonaws.com/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem',
    ])('never fetches a certificate from %s', async (url) => {
      const { http, calls } = fetcher(() => pair.certPem);
      const verifier = new SnsVerifier(http, DEFAULT_SNS_CERT_URL_PATTERN);
      await expect(verifier.verify(signSns(snsNotification(SES.delivery), pair.keyPem, url, '2'))).rejects.toThrow(
        /not an allowed SNS certificate URL/,
      );
      expect(calls).toEqual([]);
    });

    it('accepts the China partition host (amazonaws.com.cn)', async () => {
      const url =
        'https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-3242f6b8a4b0f5b2e2d2b2a2e8d2b2a2.pem';
      const { http } = fetcher(() => pair.certPem);
      await expect(
        new SnsVerifier(http, DEFAULT_SNS_CERT_URL_PATTERN).verify(
          signSns(snsNotification(SES.delivery), pair.keyPem, url, '2'),
        ),
      ).resolves.toBeUndefined();
    });

    it('refuses when the certificate URL does not answer 200, and retries the fetch next time', async () => {
      const { http, calls } = fetcher(() => 'Not Found', 404);
      const verifier = new SnsVerifier(http, DEFAULT_SNS_CERT_URL_PATTERN);
      const m = signSns(snsNotification(SES.delivery), pair.keyPem, CERT_URL, '2');
      await expect(verifier.verify(m)).rejects.toThrow(/answered 404/);
      await expect(verifier.verify(m)).rejects.toThrow(SnsVerificationError);
      expect(calls).toHaveLength(2);
    });

    it('refuses when the URL does not serve a certificate', async () => {
      const { http } = fetcher(() => '<html>hello</html>');
      await expect(
        new SnsVerifier(http, DEFAULT_SNS_CERT_URL_PATTERN).verify(
          signSns(snsNotification(SES.delivery), pair.keyPem, CERT_URL, '2'),
        ),
      ).rejects.toThrow(/did not serve a PEM certificate/);
    });

    it('refuses a certificate outside its validity period', async () => {
      const { http } = fetcher(() => pair.certPem);
      const inThreeDays = () => Date.now() + 3 * 24 * 3600 * 1000;
      const verifier = new SnsVerifier(http, DEFAULT_SNS_CERT_URL_PATTERN, inThreeDays);
      await expect(verifier.verify(signSns(snsNotification(SES.delivery), pair.keyPem, CERT_URL, '2'))).rejects.toThrow(
        /not valid now/,
      );
    });

    it('uses a configured pattern (SNS_CERT_URL_PATTERN) instead of Amazon hosts', async () => {
      const { http, calls } = fetcher(() => pair.certPem);
      const verifier = new SnsVerifier(http, '^https://127\\.0\\.0\\.1:\\d+/');
      await verifier.verify(
        signSns(snsNotification(SES.delivery), pair.keyPem, 'https://127.0.0.1:8443/cert.pem', '2'),
      );
      await expect(verifier.verify(signSns(snsNotification(SES.delivery), pair.keyPem, CERT_URL, '2'))).rejects.toThrow(
        SnsVerificationError,
      );
      expect(calls).toEqual(['https://127.0.0.1:8443/cert.pem']);
    });
  });
});
