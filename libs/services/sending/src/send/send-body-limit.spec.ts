import { SEND_BODY_LIMIT } from '@herald/http';
import { SEND_CONTENT_ALLOWANCE, sendBodyLimit } from './send-body-limit.js';

describe('/v1/send body limit: sized from what the route can accept', () => {
  it('is the attachments as base64 plus the content allowance: 10 MiB of attachments make an 18 MB limit, not 40 MB', () => {
    expect(sendBodyLimit(10 * 1024 * 1024)).toBe(Math.ceil((10 * 1024 * 1024) / 3) * 4 + SEND_CONTENT_ALLOWANCE);
    expect(sendBodyLimit(10 * 1024 * 1024)).toBeLessThan(19 * 1024 * 1024);
  });

  it('a body holding the largest attachments allowed fits', () => {
    const max = 3 * 1024 * 1024;
    const body = JSON.stringify({
      attachments: [{ filename: 'a.bin', content: Buffer.alloc(max, 7).toString('base64') }],
    });
    expect(Buffer.byteLength(body)).toBeLessThan(sendBodyLimit(max));
  });

  it("never exceeds the spec's full message size (40 MB), however large MAX_ATTACHMENT_BYTES is", () => {
    expect(sendBodyLimit(100 * 1024 * 1024)).toBe(SEND_BODY_LIMIT);
  });
});
