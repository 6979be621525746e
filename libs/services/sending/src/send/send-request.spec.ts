import { parseSendRequest, type SendRequest } from './send-request.js';

const MAX_ATTACHMENTS = 10 * 1024 * 1024;
const send = (headers: Record<string, unknown>) =>
  parseSendRequest(
    { to: 'ada@example.com', from: 'hi@brand.test', subject: 'Hi', body: '<p>Hi</p>', headers },
    MAX_ATTACHMENTS,
  );
const refusals = (headers: Record<string, unknown>) => send(headers) as { field: string; code: string }[];

describe('parseSendRequest: custom headers of /v1/send', () => {
  it.each([
    // RFC 5322 §3.6.6 resent fields, any of them
    'Resent-To',
    'Resent-From',
    'Resent-Cc',
    'Resent-Bcc',
    'Resent-Date',
    'Resent-Sender',
    'Resent-Message-ID',
    // trace fields (RFC 5321 §4.4, RFC 5322 §3.6.7) and the delivery trace of mailboxes (RFC 9228, Postfix, Exim)
    'Return-Path',
    'Received',
    'Delivered-To',
    'X-Original-To',
    'Envelope-To',
    'X-Envelope-From',
    'Errors-To',
    // the receiver's verdicts (RFC 7208, RFC 8601, RFC 8617)
    'Received-SPF',
    'Authentication-Results',
    'ARC-Seal',
    'ARC-Authentication-Results',
    // a relay's routing (Amazon SES configuration set, SendGrid's recipients) and Herald's own
    'X-SES-CONFIGURATION-SET',
    'X-SMTPAPI',
    'X-Herald-Email-Id',
  ])('refuses the trace or routing header %s with 422 naming headers.<Name>', (name) => {
    expect(refusals({ [name]: 'x' })).toEqual([
      { field: `headers.${name}`, message: expect.stringMatching(/trace or routing header/), code: 'reserved_header' },
    ]);
  });

  it('refuses them whatever their case, each named as the request spelled it', () => {
    expect(refusals({ 'delivered-to': 'a@b.test', 'RESENT-TO': 'c@d.test' }).map((e) => e.field)).toEqual([
      'headers.delivered-to',
      'headers.RESENT-TO',
    ]);
  });

  it('still refuses the headers Herald writes itself, as before', () => {
    expect(refusals({ 'Message-ID': '<x@y>', 'List-Unsubscribe': '<https://x>' })).toEqual([
      {
        field: 'headers.Message-ID',
        message: 'Message-ID is set by Herald and cannot be overridden',
        code: 'reserved_header',
      },
      {
        field: 'headers.List-Unsubscribe',
        message: 'List-Unsubscribe is set by Herald and cannot be overridden',
        code: 'reserved_header',
      },
    ]);
  });

  it('passes ordinary custom headers through, including ones that merely resemble a trace header', () => {
    const headers = { 'X-Campaign': 'spring', 'In-Reply-To': '<a@b>', 'X-Received-By-CRM': 'yes', Resentment: 'none' };
    expect((send(headers) as SendRequest).headers).toEqual(headers);
  });
});

describe('parseSendRequest: the format of the body (Plunk\u2019s `type`)', () => {
  const withType = (type: unknown) =>
    parseSendRequest(
      {
        to: 'ada@example.com',
        from: 'hi@brand.test',
        subject: 'Hi',
        body: '# Hi',
        ...(type === undefined ? {} : { type }),
      },
      MAX_ATTACHMENTS,
    );

  it('accepts type html or markdown and carries it with the body; without a type the format stays unset', () => {
    expect([withType('html'), withType('markdown'), withType(undefined)].map((r) => (r as SendRequest).type)).toEqual([
      'html',
      'markdown',
      undefined,
    ]);
  });

  it.each(['xml', 'MARKDOWN', '', 1, null])('refuses type %p with 422 naming type', (type) => {
    expect(withType(type)).toEqual([
      { field: 'type', message: 'type must be one of html, markdown (the format of body)', code: 'invalid_enum_value' },
    ]);
  });
});
