import { createPrivateKey, createPublicKey, createSign, createVerify } from 'node:crypto';
import { DkimKeyGenerator, randomLabel } from './dkim-key-generator.js';

describe('DKIM key generator', () => {
  it('makes an RSA-2048 pair: a PKCS#8 PEM private key whose public half is the base64 DER of the record', async () => {
    const key = await new DkimKeyGenerator().generate();
    expect(key.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const priv = createPrivateKey(key.privateKeyPem);
    expect(priv.asymmetricKeyType).toBe('rsa');
    expect(priv.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(createPublicKey(priv).export({ type: 'spki', format: 'der' }).toString('base64')).toBe(key.publicKey);
    const signature = createSign('sha256').update('hello').sign(priv);
    expect(
      createVerify('sha256')
        .update('hello')
        .verify(createPublicKey({ key: Buffer.from(key.publicKey, 'base64'), format: 'der', type: 'spki' }), signature),
    ).toBe(true);
  });

  it('gives every domain its own selector, a DNS label starting with herald', async () => {
    const gen = new DkimKeyGenerator();
    const [a, b] = await Promise.all([gen.generate(), gen.generate()]);
    expect(a.selector).toMatch(/^herald[a-z0-9]{8}$/);
    expect(a.selector).not.toBe(b.selector);
    expect(a.publicKey).not.toBe(b.publicKey);
  });

  it('makes 128-bit hex ownership tokens and random labels of the asked length', () => {
    const gen = new DkimKeyGenerator();
    expect(gen.verificationToken()).toMatch(/^[0-9a-f]{32}$/);
    expect(gen.verificationToken()).not.toBe(gen.verificationToken());
    expect(randomLabel(40)).toMatch(/^[a-z0-9]{40}$/);
  });
});
