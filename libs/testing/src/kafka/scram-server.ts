import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

export type ScramAlgorithm = 'sha256' | 'sha512';

/**
 * The server side of one SCRAM exchange (RFC 5802, as Kafka's SCRAM-SHA-256/512): answers the
 * client-first message with a nonce, salt and iteration count, then checks the client's proof
 * against the password `passwordOf` gives and answers with the server signature.
 */
export class ScramServerExchange {
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';
  private password: string | undefined;
  private readonly salt = randomBytes(16);
  private readonly iterations = 4096;

  constructor(
    private readonly algorithm: ScramAlgorithm,
    private readonly passwordOf: (user: string) => string | undefined,
  ) {}

  /** The server-first message, or undefined when the client-first message is malformed. */
  first(clientFirst: string): string | undefined {
    const match = /^[ny],[^,]*,(n=([^,]*),r=([^,]+).*)$/.exec(clientFirst);
    if (!match) return undefined;
    this.clientFirstBare = match[1]!;
    const user = match[2]!.replace(/=2C/g, ',').replace(/=3D/g, '=');
    this.password = this.passwordOf(user);
    this.nonce = match[3]! + randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${this.salt.toString('base64')},i=${this.iterations}`;
    return this.serverFirst;
  }

  /** The server-final message when the proof is right, else undefined (unknown user or wrong password). */
  final(clientFinal: string): string | undefined {
    const at = clientFinal.lastIndexOf(',p=');
    if (at < 0 || this.password === undefined) return undefined;
    const withoutProof = clientFinal.slice(0, at);
    const proof = Buffer.from(clientFinal.slice(at + 3), 'base64');
    if (!withoutProof.split(',').includes(`r=${this.nonce}`)) return undefined;
    const hmac = (key: Buffer, text: string): Buffer => createHmac(this.algorithm, key).update(text).digest();
    const keyLength = this.algorithm === 'sha256' ? 32 : 64;
    const salted = pbkdf2Sync(this.password, this.salt, this.iterations, keyLength, this.algorithm);
    const clientKey = hmac(salted, 'Client Key');
    const storedKey = createHash(this.algorithm).update(clientKey).digest();
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const clientSignature = hmac(storedKey, authMessage);
    const expected = Buffer.from(clientKey.map((b, i) => b ^ clientSignature[i]!));
    if (proof.length !== expected.length || !timingSafeEqual(proof, expected)) return undefined;
    return `v=${hmac(hmac(salted, 'Server Key'), authMessage).toString('base64')}`;
  }
}
