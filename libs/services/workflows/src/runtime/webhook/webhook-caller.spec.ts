describe('the webhook caller refuses before connecting', () => {
  it('an address literal outside the allowlist (no DNS lookup happens for it)', async () => {
    const { WebhookCaller } = await import('./webhook-caller.js');
    const caller = new WebhookCaller({ secret: 's', allow: '127.0.0.1/32' });
    const answer = await caller.call({
      url: 'http://127.0.0.2:9/',
      method: 'POST',
      headers: {},
      body: '{}',
      idempotencyKey: 'k',
    });
    expect(answer).toMatchObject({ status: 0, permanent: true, error: expect.stringMatching(/not a public address/) });
    const metadata = await caller.call({
      url: 'http://[::ffff:169.254.169.254]/latest',
      method: 'GET',
      headers: {},
      idempotencyKey: 'k',
    });
    expect(metadata).toMatchObject({ permanent: true });
  });
});
