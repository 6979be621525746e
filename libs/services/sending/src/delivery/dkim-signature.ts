import { createHash, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A header field of the message as nodemailer's DKIM MessageParser reads it: the lower-case name and the raw (folded) line. */
interface ParsedHeader {
  key: string;
  line: string;
}

type SignHeaders = (
  headers: ParsedHeader[],
  hashAlgo: string,
  bodyHash: string,
  options: { domainName: string; keySelector: string; privateKey: KeyObject; headerFieldNames: string },
) => string | false;

// nodemailer's own DKIM-Signature field builder and header parser (its package exports only the
// streaming signer): the header canonicalisation, the tags and their folding stay nodemailer's
const nodemailerDir = path.dirname(createRequire(import.meta.url).resolve('nodemailer'));
const load = <T>(file: string): T => createRequire(import.meta.url)(path.join(nodemailerDir, file)) as T;
const signHeaders = load<SignHeaders>('dkim/sign.js');
const MessageParser = load<new () => { rawHeaders: Buffer; parseHeaders(): ParsedHeader[] }>('dkim/message-parser.js');

/** Where the header ends, as nodemailer's MessageParser finds it: after the first empty line (LF LF or LF CR LF); the whole message when there is none. */
function headerLength(message: Buffer): number {
  for (let i = message.indexOf(0x0a); i >= 0; i = message.indexOf(0x0a, i + 1)) {
    if (message[i + 1] === 0x0a) return i + 2;
    if (message[i + 1] === 0x0d && message[i + 2] === 0x0a) return i + 3;
  }
  return message.length;
}

/**
 * The body hash of relaxed canonicalisation (RFC 6376 §3.4.4), as nodemailer's RelaxedBody computes
 * it: lines end at LF (a CR right before it dropped, a CR elsewhere is content), runs of SP and HTAB
 * become one SP and go at a line's end, every line ends with CRLF, empty lines at the end are
 * ignored. Bytes as latin1 characters, one each, so the hash covers the bytes themselves.
 */
export function relaxedBodyHash(body: Buffer): string {
  const canonical = body
    .toString('latin1')
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\r?\n/g, '\r\n')
    .replace(/ $/, '')
    .replace(/(?:\r\n)+$/, '');
  return createHash('sha256')
    .update(canonical === '' ? '' : `${canonical}\r\n`, 'latin1')
    .digest('base64');
}

/**
 * The message with its DKIM-Signature field (rsa-sha256, relaxed/relaxed) put first: the bytes
 * nodemailer's streaming signer (`dkim` of sendMail) gives for it, computed on the whole buffer at
 * once instead of through its parser, body and output streams (a third of composing a campaign
 * email). As that signer, an RSA key that cannot sign leaves the message unsigned.
 */
export function signDkim(
  message: Buffer,
  key: { domainName: string; keySelector: string; privateKey: KeyObject },
  headerFieldNames: string,
): Buffer {
  const end = headerLength(message);
  const parser = new MessageParser();
  parser.rawHeaders = message.subarray(0, end);
  const field = signHeaders(parser.parseHeaders(), 'sha256', relaxedBodyHash(message.subarray(end)), {
    domainName: key.domainName,
    keySelector: key.keySelector,
    privateKey: key.privateKey,
    headerFieldNames,
  });
  return field ? Buffer.concat([Buffer.from(`${field}\r\n`), message]) : message;
}
