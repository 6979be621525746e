import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import DKIM from 'nodemailer/lib/dkim';
import { signDkim } from './dkim-signature.js';

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'der' },
});
const key = { domainName: 'news.example.test', keySelector: 'herald', privateKey: createPrivateKey(privateKey) };
const FIELDS = 'From:Subject:Date:Message-ID:To:MIME-Version:Content-Type:List-Unsubscribe:List-Unsubscribe-Post';

/** nodemailer's streaming signer on these bytes (what `dkim` of sendMail runs). */
function streamingSigner(message: Buffer): Promise<Buffer> {
  const signed = new DKIM({
    ...key,
    privateKey: key.privateKey as unknown as string,
    headerFieldNames: FIELDS,
  }).sign(message);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    signed.on('data', (c: Buffer) => chunks.push(c));
    signed.once('end', () => resolve(Buffer.concat(chunks)));
    signed.once('error', reject);
  });
}

/** A message as the composer builds it, signed by nodemailer (sendMail's `dkim`) or not. */
async function composed(mail: SendMailOptions, signed: boolean): Promise<Buffer> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const dkim = { ...key, privateKey: key.privateKey as unknown as string, headerFieldNames: FIELDS };
  const info = (await transport.sendMail({ ...mail, ...(signed ? { dkim } : {}) })) as { message: Buffer };
  return info.message;
}

const mails: [string, SendMailOptions][] = [
  [
    'a personalised campaign email (HTML, plain text, List-Unsubscribe)',
    {
      messageId: '<em_1@news.example.test>',
      from: { name: 'Weekly News', address: 'news@news.example.test' },
      to: 'reader-1@example.test',
      subject: 'The weekly for Reader 1',
      html: `<p>Hello Reader 1 in Lisbon</p>${'<p>a story   with  spaces \t and a <a href="https://example.test/x">link</a></p>\n'.repeat(40)}`,
      text: `Hello Reader 1\n\n${'a line with trailing spaces   \n\n\n'.repeat(30)}`,
      headers: {
        'List-Unsubscribe': '<https://example.test/u/abc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    },
  ],
  [
    'non-ASCII names and subject (encoded words), a reply-to, an attachment',
    {
      messageId: '<em_2@news.example.test>',
      from: { name: 'Société Générale des Nouvelles — édition', address: 'news@news.example.test' },
      to: { name: 'Zoë Ångström', address: 'zoe@example.test' },
      replyTo: 'help@news.example.test',
      subject: `Ünïcödé ${'and a long subject that folds over several header lines '.repeat(4)}`,
      html: '<p>日本語のメール</p>',
      text: '日本語のメール',
      attachments: [{ filename: 'a.txt', content: Buffer.from('hello\r\n').toString('base64'), encoding: 'base64' }],
    },
  ],
];

describe('signDkim: the bytes of nodemailer’s own DKIM signer, without its streams', () => {
  it.each(mails)('%s: signing the unsigned message gives what sendMail with dkim gives', async (_, mail) => {
    const bySendMail = await composed(mail, true);
    // the same message without its signature field (folded lines included): what the composer now signs
    const unsigned = Buffer.from(
      bySendMail.toString('latin1').replace(/^DKIM-Signature:.*\r\n(?:[ \t].*\r\n)*/, ''),
      'latin1',
    );
    expect(unsigned.length).toBeLessThan(bySendMail.length);
    expect(signDkim(unsigned, key, FIELDS).equals(bySendMail)).toBe(true);
    // and on an unsigned message the composer builds itself
    const fresh = await composed(mail, false);
    expect(signDkim(fresh, key, FIELDS).equals(await streamingSigner(fresh))).toBe(true);
  });

  it.each([
    ['an empty body', 'A: b\r\n\r\n'],
    [
      'whitespace runs, trailing whitespace and empty lines at the end',
      'A: b\r\n\r\n  x \t y  \r\n\r\n\r\nz\r\r\n \r\n\r\n',
    ],
    ['LF line ends and a CR at the very end', 'A: b\n\nline\nnext\r'],
    ['folded header fields, a CR inside a line', 'A: b\r\n  folded\r\nB:  c\r\n\r\n\tlead\r\nx \r y\r\n'],
    ['headers only', 'From: a@news.example.test\r\nSubject: x\r\n'],
    ['a body without a final line break', 'From: a@news.example.test\r\n\r\nlast line'],
    ['whitespace after the last line break, a CR after whitespace at the end', 'A: b\r\n\r\nx\r\n \t'],
    ['whitespace, then a CR at the very end', 'A: b\r\n\r\nx \r'],
  ])('%s: the same bytes as the streaming signer', async (_, message) => {
    const bytes = Buffer.from(message, 'latin1');
    expect(signDkim(bytes, key, FIELDS).toString('latin1')).toBe((await streamingSigner(bytes)).toString('latin1'));
  });

  it('random bodies of spaces, tabs, CRs, LFs and letters: the same bytes as the streaming signer', async () => {
    let seed = 40;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 150; i++) {
      const body = Array.from({ length: Math.floor(random() * 30) }, () => 'a \t\r\n'[Math.floor(random() * 5)]).join(
        '',
      );
      const bytes = Buffer.from(`From: a@news.example.test\r\n\r\n${body}`, 'latin1');
      expect([body, signDkim(bytes, key, FIELDS).toString('latin1')]).toEqual([
        body,
        (await streamingSigner(bytes)).toString('latin1'),
      ]);
    }
  });
});
