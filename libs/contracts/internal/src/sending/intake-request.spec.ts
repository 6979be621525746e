import { intakeItemOf, parseIntakeRequest, type IntakeItem } from './intake-request.js';

const item = (extra: Record<string, unknown> = {}) => ({
  key: 'campaign:cmp_1:ctc_1',
  to: 'Ada@Example.com',
  from: 'News@Brand.test',
  subject: 'Hi',
  body: '<p>Hi</p>',
  category: 'marketing',
  origin: 'campaign',
  ...extra,
});
const fields = (raw: unknown) => (parseIntakeRequest(raw) as { field: string }[]).map((e) => e.field);

describe('parseIntakeRequest: the body of POST /internal/emails', () => {
  it('puts campaign mail in the bulk lane and workflow mail in the normal one unless priority says otherwise', () => {
    const [campaign, workflow, urgent] = parseIntakeRequest({
      items: [item(), item({ origin: 'workflow' }), item({ priority: 'normal' })],
    }) as IntakeItem[];
    expect([campaign!.priority, workflow!.priority, urgent!.priority]).toEqual(['bulk', 'normal', 'normal']);
    expect(campaign!.from).toBe('news@brand.test');
  });

  it('names every bad field as items[i].<field>', () => {
    expect(
      fields({
        items: [
          item(),
          item({ key: 'x'.repeat(201), category: 'promo', origin: 'api', subject: 'a\nb', from: 'nope' }),
        ],
      }),
    ).toEqual(['items[1].key', 'items[1].from', 'items[1].subject', 'items[1].category', 'items[1].origin']);
  });

  it('wants subject, body and from unless a template is named', () => {
    expect(fields({ items: [{ key: 'k', to: 'a@b.test', category: 'transactional', origin: 'workflow' }] })).toEqual([
      'items[0].subject',
      'items[0].body',
      'items[0].from',
    ]);
    expect(
      parseIntakeRequest({
        items: [{ key: 'k', to: 'a@b.test', templateId: 'tpl_1', category: 'transactional', origin: 'workflow' }],
      }),
    ).toEqual([expect.objectContaining({ key: 'k', templateId: 'tpl_1' })]);
  });

  it('takes 1 to 500 items and keeps an invalid recipient for a skipped answer, not a refusal', () => {
    expect(fields({ items: [] })).toEqual(['items']);
    expect(fields({ items: Array.from({ length: 501 }, () => item()) })).toEqual(['items']);
    expect(fields({})).toEqual(['items']);
    expect(parseIntakeRequest({ items: [item({ to: 'not an address' })] })).toEqual([
      expect.objectContaining({ to: 'not an address' }),
    ]);
  });

  it('marks a test send only when test is true, and refuses a test that is not a boolean', () => {
    const [plain, test] = parseIntakeRequest({ items: [item({ test: false }), item({ test: true })] }) as IntakeItem[];
    expect([plain!.test, test!.test]).toEqual([undefined, true]);
    expect(fields({ items: [item({ test: 'yes' })] })).toEqual(['items[0].test']);
  });

  it("carries the body's format (html or markdown, unset when absent) and refuses any other", () => {
    const [plain, md, html] = parseIntakeRequest({
      items: [item(), item({ format: 'markdown' }), item({ format: 'html' })],
    }) as IntakeItem[];
    expect([plain!.format, md!.format, html!.format]).toEqual([undefined, 'markdown', 'html']);
    expect(fields({ items: [item({ format: 'xml' })] })).toEqual(['items[0].format']);
  });

  it('checks the contact snapshot shape', () => {
    expect(fields({ items: [item({ contact: { id: 'ctc_1', email: 'a@b.test' } })] })).toEqual(['items[0].contact']);
    const [ok] = parseIntakeRequest({
      items: [item({ contact: { id: 'ctc_1', email: 'a@b.test', subscribed: true, data: { a: 1 }, locale: 'fr' } })],
    }) as IntakeItem[];
    expect(ok!.contact).toEqual({ id: 'ctc_1', email: 'a@b.test', subscribed: true, data: { a: 1 }, locale: 'fr' });
  });

  it("carries an item's own traceparent, and drops one that is not a string of up to 55 characters without refusing the call", () => {
    const traceparent = `00-${'a'.repeat(32)}-${'1'.repeat(16)}-01`;
    const [traced, long, other, none] = parseIntakeRequest({
      items: [item({ traceparent }), item({ traceparent: `${traceparent}-x` }), item({ traceparent: 7 }), item()],
    }) as IntakeItem[];
    expect(traced!.traceparent).toBe(traceparent);
    for (const i of [long, other, none]) expect(i).not.toHaveProperty('traceparent');
  });
});

describe('intakeItemOf', () => {
  it('names the item a field problem of a refused intake call points at, and the field within it', () => {
    expect(intakeItemOf({ field: 'items[3].to' })).toEqual({ index: 3, field: 'to' });
    expect(intakeItemOf({ field: 'items[12].contact.id' })).toEqual({ index: 12, field: 'contact.id' });
    expect(intakeItemOf({ field: 'items[0]' })).toEqual({ index: 0, field: '' });
    expect(intakeItemOf({ field: 'items' })).toBeUndefined();
  });
});
