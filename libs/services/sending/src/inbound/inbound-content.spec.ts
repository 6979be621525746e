import { headerOf, inboundContent, ownMessageId, type ParsedInbound } from './inbound-content.js';

const attachment = (filename: string, size: number) => ({
  filename,
  contentType: 'application/octet-stream',
  size,
  content: Buffer.alloc(size, 1),
});

const parsed = (fields: Partial<ParsedInbound> = {}): ParsedInbound => ({
  headerLines: [{ key: 'subject', line: 'Subject: Hello' }],
  attachments: [],
  html: false,
  ...fields,
});

describe('what is kept of a received message', () => {
  it('keeps each header line by its lower-case name, folded values unfolded', () => {
    expect(headerOf({ key: 'X-Thing', line: 'X-Thing: a\r\n  b\r\n\tc' })).toEqual({ name: 'x-thing', value: 'a b c' });
  });

  it('keeps attachment contents in order while they fit the budget, and lists the rest without content', () => {
    const content = inboundContent(
      parsed({ attachments: [attachment('a.bin', 600), attachment('b.bin', 600), attachment('c.bin', 300)] }),
      1000,
    );
    expect(content.attachments.map((a) => [a.filename, a.stored, a.content?.length ?? 0])).toEqual([
      ['a.bin', true, 800],
      ['b.bin', false, 0],
      ['c.bin', true, 400],
    ]);
    expect(Buffer.from(content.attachments[0]!.content!, 'base64')).toEqual(Buffer.alloc(600, 1));
  });

  it('keeps no attachment content with a budget of 0, but describes every attachment', () => {
    const content = inboundContent(parsed({ attachments: [attachment('a.bin', 1)] }), 0);
    expect(content.attachments).toEqual([
      {
        filename: 'a.bin',
        contentType: 'application/octet-stream',
        size: 1,
        contentId: null,
        disposition: 'attachment',
        stored: false,
      },
    ]);
  });

  it('names an inline part by its Content-ID without brackets', () => {
    const content = inboundContent(
      parsed({ attachments: [{ ...attachment('logo.png', 1), cid: '<logo@x>', contentDisposition: 'inline' }] }),
      10,
    );
    expect(content.attachments[0]).toMatchObject({ contentId: 'logo@x', disposition: 'inline' });
  });

  it('drops NUL characters, which PostgreSQL cannot store, from text, HTML, subject and headers', () => {
    const content = inboundContent(
      parsed({
        subject: 'Hi\u0000!',
        text: 'a\u0000b',
        html: '<p>\u0000</p>',
        headerLines: [{ key: 'x-a', line: 'X-A: \u0000v' }],
      }),
      0,
    );
    expect([content.subject, content.text, content.html, content.headers[0]!.value]).toEqual([
      'Hi!',
      'ab',
      '<p></p>',
      'v',
    ]);
  });

  it('cuts the subject at 998 characters and keeps at most 500 header lines', () => {
    const content = inboundContent(
      parsed({
        subject: 's'.repeat(2000),
        headerLines: Array.from({ length: 600 }, (_, i) => ({ key: 'received', line: `Received: hop ${i}` })),
      }),
      0,
    );
    expect(content.subject).toHaveLength(998);
    expect(content.headers).toHaveLength(500);
  });

  it('keeps no HTML or text when the message has none', () => {
    expect(inboundContent(parsed(), 0)).toMatchObject({ text: null, html: null, subject: null, messageId: null });
  });

  it('keeps its own Message-ID without brackets, unless it is too long to index', () => {
    expect(ownMessageId('<abc@x.test>')).toBe('abc@x.test');
    expect(ownMessageId(` <${'x'.repeat(300)}@y> `)).toBeNull();
    expect(ownMessageId(undefined)).toBeNull();
  });
});
