import { createTransport } from 'nodemailer';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

describe('smtp sink', () => {
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterEach(() => {
    sink.clear();
    sink.clearRejections();
  });

  afterAll(async () => {
    await sink.stop();
  });

  it('listens on loopback with an ephemeral port', () => {
    expect(sink.host).toBe('127.0.0.1');
    expect(sink.port).toBeGreaterThan(0);
    expect(sink.url).toBe(`smtp://127.0.0.1:${sink.port}`);
  });

  it('captures and parses a message with html and an attachment', async () => {
    const transport = createTransport({ url: sink.url });
    try {
      const info = await transport.sendMail({
        from: 'Herald <sender@herald.test>',
        to: 'alice@example.test',
        cc: 'bob@example.test',
        subject: 'Hello ✓ world',
        text: 'plain body',
        html: '<p>Hello <b>world</b></p>',
        headers: { 'X-Herald-Message': 'm-123' },
        attachments: [{ filename: 'report.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' }],
      });
      expect(info.accepted).toEqual(['alice@example.test', 'bob@example.test']);

      const [message] = await sink.waitFor(1);
      expect(message!.from).toBe('sender@herald.test');
      expect(message!.to).toEqual(['alice@example.test', 'bob@example.test']);
      expect(message!.subject).toBe('Hello ✓ world');
      expect(message!.html).toBe('<p>Hello <b>world</b></p>');
      expect(message!.text?.trim()).toBe('plain body');
      expect(message!.headers.get('x-herald-message')).toBe('m-123');
      expect(message!.messageId).toBe(info.messageId);
      expect(message!.attachments).toHaveLength(1);
      expect(message!.attachments[0]).toMatchObject({ filename: 'report.csv', contentType: 'text/csv' });
      expect(message!.attachments[0]!.content.toString()).toBe('a,b\n1,2\n');
      // raw holds the exact bytes: header block, CRLF line ends, the encoded subject
      const raw = message!.raw.toString('latin1');
      expect(raw).toMatch(/^[\s\S]*\r\n\r\n/);
      expect(raw).toContain('X-Herald-Message: m-123\r\n');
      expect(raw).toContain(`Message-ID: ${info.messageId}`);
    } finally {
      transport.close();
    }
  });

  it('answers RCPT TO with the configured code for rejected recipients', async () => {
    sink.reject({ recipient: 'bounce@example.test', code: 550, message: 'No such user here' });
    const transport = createTransport({ url: sink.url });
    try {
      await expect(
        transport.sendMail({ from: 'sender@herald.test', to: 'bounce@example.test', subject: 'x', text: 'x' }),
      ).rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining('No such user here') });

      // with a good recipient alongside, the message goes through to the accepted one only
      const info = await transport.sendMail({
        from: 'sender@herald.test',
        to: ['bounce@example.test', 'ok@example.test'],
        subject: 'partial',
        text: 'x',
      });
      expect(info.rejected).toEqual(['bounce@example.test']);
      expect(info.rejectedErrors?.[0]).toMatchObject({ responseCode: 550 });
      const [message] = await sink.waitFor((m) => m.subject === 'partial');
      expect(message!.to).toEqual(['ok@example.test']);
    } finally {
      transport.close();
    }
  });

  it('simulates a temporary failure once, at RCPT or at DATA', async () => {
    sink.reject({ recipient: /@greylist\.test$/, code: 451, times: 1 });
    sink.reject({ recipient: 'later@example.test', stage: 'data', code: 452, message: 'Try later', times: 1 });
    const transport = createTransport({ url: sink.url });
    try {
      const send = (to: string) => transport.sendMail({ from: 'sender@herald.test', to, subject: to, text: 'x' });
      await expect(send('a@greylist.test')).rejects.toMatchObject({ responseCode: 451 });
      await expect(send('a@greylist.test')).resolves.toMatchObject({ accepted: ['a@greylist.test'] });
      await expect(send('later@example.test')).rejects.toMatchObject({ responseCode: 452, command: 'DATA' });
      await expect(send('later@example.test')).resolves.toMatchObject({ accepted: ['later@example.test'] });
      const messages = await sink.waitFor(2);
      expect(messages.map((m) => m.subject)).toEqual(['a@greylist.test', 'later@example.test']);
    } finally {
      transport.close();
    }
  });

  it('a faulty relay resets mid-DATA (message not taken), after DATA (message taken, no answer), or answers late', async () => {
    sink.fault({ recipient: 'mid@example.test', fault: 'reset-mid-data', times: 1 });
    sink.fault({ recipient: 'after@example.test', fault: 'reset-after-data', times: 1 });
    sink.fault({ recipient: 'slow@example.test', fault: 'slow', delayMs: 300 });
    const transport = createTransport({ url: sink.url });
    try {
      const send = (to: string) => transport.sendMail({ from: 'sender@herald.test', to, subject: to, text: 'x' });
      await expect(send('mid@example.test')).rejects.toBeDefined();
      expect(sink.messages).toHaveLength(0);
      await expect(send('after@example.test')).rejects.toBeDefined();
      expect(sink.messages.map((m) => m.subject)).toEqual(['after@example.test']);
      const started = Date.now();
      await expect(send('slow@example.test')).resolves.toMatchObject({ accepted: ['slow@example.test'] });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      await expect(send('mid@example.test')).resolves.toMatchObject({ accepted: ['mid@example.test'] });
    } finally {
      transport.close();
    }
  });

  it('captures every message from a pooled transport', async () => {
    const transport = createTransport({ url: sink.url, pool: true, maxConnections: 5, maxMessages: 100 });
    const count = 200;
    try {
      const results = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          transport.sendMail({
            from: 'bulk@herald.test',
            to: `user${i}@example.test`,
            subject: `bulk ${i}`,
            html: `<p>message ${i}</p>`,
          }),
        ),
      );
      expect(results.every((r) => r.accepted.length === 1)).toBe(true);
      const messages = await sink.waitFor(count);
      expect(new Set(messages.map((m) => m.subject)).size).toBe(count);
      expect(messages.find((m) => m.to[0] === 'user137@example.test')?.html).toBe('<p>message 137</p>\n');
    } finally {
      transport.close();
    }
  });

  it('waitFor counts matching messages and times out with a useful error', async () => {
    const transport = createTransport({ url: sink.url });
    try {
      const waiting = sink.waitFor({ where: (m) => m.to.includes('carol@example.test'), count: 2 });
      for (const subject of ['one', 'two', 'three']) {
        await transport.sendMail({
          from: 'sender@herald.test',
          to: subject === 'two' ? 'dave@example.test' : 'carol@example.test',
          subject,
          text: 'x',
        });
      }
      expect((await waiting).map((m) => m.subject)).toEqual(['one', 'three']);
      await expect(sink.waitFor(10, 50)).rejects.toThrow(
        /timed out after 50 ms waiting for 10 message\(s\); 3 matched/,
      );
    } finally {
      transport.close();
    }
  });
});
