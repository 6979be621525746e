import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
// mailauth ships CommonJS; its DKIM verifier is what receiving mail servers run
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { register } from 'prom-client';
import type { ComposeTask } from './compose-message.js';
import { createMessageComposer, type MessageComposer } from './message-composers.js';

/** The compose thread as the built service runs it (`npm test` builds dist/ first; HERALD_DIST names another build). */
const BUILT_WORKER = fileURLToPath(
  new URL(
    `../../../../../${process.env.HERALD_DIST ?? 'dist'}/libs/services/sending/src/delivery/compose.worker.js`,
    import.meta.url,
  ),
);

describe('message composers (on the event loop and in compose threads)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const dnsValue = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
  const task = (n: number): ComposeTask => ({
    message: {
      messageId: `msg-${n}@compose.example.test`,
      from: { email: 'news@compose.example.test', name: 'News' },
      to: { email: `reader-${n}@example.com` },
      subject: `Issue ${n}`,
      html: `<p>Hello reader ${n}</p>`.repeat(200),
      text: `Hello reader ${n}`,
      headers: {
        'List-Unsubscribe': `<https://example.test/u/${n}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      attachments: [],
    },
    dkim: { domainName: 'compose.example.test', keySelector: 'sel', privateKey },
  });
  const verify = async (raw: Buffer) =>
    (
      await dkimVerify(raw, {
        resolver: async (name: string) => {
          if (name !== 'sel._domainkey.compose.example.test')
            throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
          return [[dnsValue]];
        },
      })
    ).results.map((r: { status: { result: string } }) => r.status.result);

  let threads: MessageComposer;
  let inline: MessageComposer;
  beforeAll(() => {
    expect(existsSync(BUILT_WORKER)).toBe(true);
    threads = createMessageComposer(2, BUILT_WORKER);
    inline = createMessageComposer(0);
  });
  afterAll(async () => {
    await threads.close();
    await inline.close();
  });

  it('a message composed in a compose thread carries a DKIM signature a receiver verifies, as one composed on the event loop', async () => {
    expect([threads.offThread, inline.offThread]).toEqual([true, false]);
    const [a, b] = await Promise.all([threads.compose(task(1)), inline.compose(task(1))]);
    expect(await verify(a)).toEqual(['pass']);
    expect(await verify(b)).toEqual(['pass']);
    // the same body apart from the random MIME boundary (the headers differ by Date and the signature)
    const body = (raw: Buffer) =>
      raw
        .toString('utf8')
        .split('\r\n\r\n')
        .slice(1)
        .join('\r\n\r\n')
        .replace(/----_NmP-[0-9a-f]+-Part_/g, 'BOUNDARY');
    expect(body(a)).toBe(body(b));
  });

  it('many messages composed at once in threads each come back whole and in their own bytes', async () => {
    const raws = await Promise.all(Array.from({ length: 40 }, (_, n) => threads.compose(task(n))));
    for (const [n, raw] of raws.entries()) expect(raw.toString('utf8')).toContain(`Subject: Issue ${n}\r\n`);
    expect(await verify(raws[7]!)).toEqual(['pass']);
  });

  it('a message of a hand-off that cannot be composed fails alone: the others of its hand-off come back whole', async () => {
    // attachments that are no list: composing it throws
    const broken: ComposeTask = { ...task(3), message: { ...task(3).message, attachments: null as never } };
    const settled = await Promise.allSettled([
      threads.compose(task(1)),
      threads.compose(task(2)),
      threads.compose(broken),
      threads.compose(task(4)),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const [, second, , fourth] = settled as PromiseFulfilledResult<Buffer>[];
    expect(second!.value.toString('utf8')).toContain('Subject: Issue 2\r\n');
    expect(await verify(fourth!.value)).toEqual(['pass']);
  });

  it("an urgent message (the normal lane's) is composed before the non-urgent ones still waiting for a thread", async () => {
    const composer = createMessageComposer(1, BUILT_WORKER);
    try {
      const done: string[] = [];
      const bulk = Array.from({ length: 40 }, (_, n) => composer.compose(task(n)).then(() => done.push(`bulk-${n}`)));
      await new Promise((resolve) => setImmediate(resolve)); // the bulk hand-offs are queued
      const urgent = composer.compose(task(99), true).then(() => done.push('urgent'));
      await Promise.all([...bulk, urgent]);
      // 5 hand-offs of 8: the urgent one waits for the hand-off on the thread at most, not the 4 queued after it
      expect(done.indexOf('urgent')).toBeLessThanOrEqual(16);
    } finally {
      await composer.close();
    }
  });

  it("a compose thread keeps its small young generation when the process runs with a large one (npm start's --max-semi-space-size=64)", async () => {
    setFlagsFromString('--max-semi-space-size=64');
    const composer = createMessageComposer(1, BUILT_WORKER);
    try {
      // a thousand messages: enough for V8 to grow the thread's young generation past 64 MB had the
      // process's semi-spaces applied to it (90 MB measured)
      for (let round = 0; round < 10; round++)
        await Promise.all(Array.from({ length: 100 }, (_, n) => composer.compose(task(n))));
      const [heap] = await composer.threadHeaps();
      expect(heap!.total).toBeLessThan(64 * 1024 * 1024);
      // /metrics shows each thread's heap
      expect(await register.getSingleMetricAsString('herald_compose_thread_heap_bytes')).toMatch(
        /herald_compose_thread_heap_bytes\{thread="\d+",kind="resident"\} [1-9]\d*/,
      );
    } finally {
      await composer.close();
      setFlagsFromString('--max-semi-space-size=0'); // V8's default: unset
    }
  });

  it('refuses to start without the built compose thread, naming the way out', () => {
    expect(() => createMessageComposer(1, '/nonexistent/compose.worker.js')).toThrow(/DELIVERY_COMPOSE_THREADS=0/);
  });
});
