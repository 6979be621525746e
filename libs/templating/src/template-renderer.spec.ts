import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { Parser } from 'liquidjs';
import { renderTemplate, validateTemplate } from './index.js';
import { TemplateError, TemplateErrorCode } from './template-errors.js';
import { DEFAULT_TEMPLATE_LIMITS, TemplateRenderer } from './template-renderer.js';

const html = { escape: 'html' } as const;
const text = { escape: 'none' } as const;

/** Runs `fn`, expects a TemplateError, returns it. Which limit stopped a render is read from the error, never from a clock. */
function failure(fn: () => unknown): { error: TemplateError } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateError);
    return { error: error as TemplateError };
  }
  throw new Error('expected a TemplateError');
}

describe('variables: {{field}} inserts a value, dotted paths reach nested objects, missing renders empty', () => {
  const renderer = new TemplateRenderer();

  it('{{field}} inserts a string, number and boolean', () => {
    expect(renderer.render('{{ name }}/{{n}}/{{ vip }}', { name: 'Ana', n: 42, vip: true }, text)).toBe('Ana/42/true');
  });

  it('{{profile.tier}} reaches a nested object', () => {
    expect(
      renderer.render('{{ profile.tier }} {{ a.b.c }}', { profile: { tier: 'gold' }, a: { b: { c: 3 } } }, text),
    ).toBe('gold 3');
  });

  it('a missing variable renders empty, without an error', () => {
    expect(renderer.render('[{{ nope }}]', {}, text)).toBe('[]');
  });

  it('a missing parent of a dotted path renders empty, without an error', () => {
    expect(renderer.render('[{{ profile.tier }}][{{ name.first }}]', { name: 'Ana' }, text)).toBe('[][]');
  });

  it('null renders empty', () => {
    expect(renderer.render('[{{ name }}]', { name: null }, html)).toBe('[]');
  });

  it('keys containing dashes and bracket access work', () => {
    expect(
      renderer.render('{{ first-name }} {{ ["last name"] }}', { 'first-name': 'Ana', 'last name': 'Lee' }, text),
    ).toBe('Ana Lee');
  });

  it('prototype properties are not reachable from a template', () => {
    expect(
      renderer.render(
        '[{{ profile.constructor }}][{{ profile.__proto__ }}][{{ profile.toString }}]',
        { profile: { tier: 'x' } },
        text,
      ),
    ).toBe('[][][]');
  });

  it('liquid control flow ({% if %}, {% for %}, {% assign %}) stays available', () => {
    const source =
      '{% if vip %}VIP {% endif %}{% for item in items %}{{ item.name }}{% unless forloop.last %}, {% endunless %}{% endfor %}{% assign n = items | size %} ({{ n }})';
    expect(renderer.render(source, { vip: true, items: [{ name: 'a' }, { name: 'b' }] }, text)).toBe('VIP a, b (2)');
  });

  it('the module functions render and validate with the shared default renderer', () => {
    expect(renderTemplate('Hi {{ name ?? there }}', {}, text)).toBe('Hi there');
    expect(validateTemplate('{% if x %}')).toHaveLength(1);
  });
});

describe('escaping: HTML bodies escape every inserted value, subjects and plain text do not', () => {
  const renderer = new TemplateRenderer();
  const hostile = { name: `<script>alert("x")</script> Tom & 'Jerry'` };

  it('html mode escapes <, >, &, double and single quotes of inserted values', () => {
    expect(renderer.render('<p>{{ name }}</p>', hostile, html)).toBe(
      '<p>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; Tom &amp; &#39;Jerry&#39;</p>',
    );
  });

  it('html mode escapes values inside attributes too', () => {
    expect(renderer.render('<a title="{{ t }}">x</a>', { t: '" onmouseover="alert(1)' }, html)).toBe(
      '<a title="&#34; onmouseover=&#34;alert(1)">x</a>',
    );
  });

  it('html mode does not escape the template\u2019s own markup', () => {
    expect(renderer.render('<b>{% if x %}<i>yes</i>{% endif %}</b>', { x: true }, html)).toBe('<b><i>yes</i></b>');
  });

  it('none mode (subjects, plain text) inserts values unchanged', () => {
    expect(renderer.render('{{ name }}', hostile, text)).toBe(hostile.name);
  });

  it('| raw does not switch escaping off in html mode (contact data is untrusted)', () => {
    expect(renderer.render('{{ name | raw }}', { name: '<b>' }, html)).toBe('&lt;b&gt;');
  });

  it('an explicit | escape is not escaped twice in html mode', () => {
    expect(renderer.render('{{ name | escape }}|{{ name | escape_once }}', { name: '<b>&' }, html)).toBe(
      '&lt;b&gt;&amp;|&lt;b&gt;&amp;',
    );
  });

  it('filter output is escaped too in html mode', () => {
    expect(renderer.render('{{ name | append: "<i>" }}', { name: '<b>' }, html)).toBe('&lt;b&gt;&lt;i&gt;');
  });

  it('{% echo %} and {% cycle %} output is escaped in html mode', () => {
    expect(renderer.render('{% echo name %}{% cycle name, "b" %}', { name: '<b>' }, html)).toBe('&lt;b&gt;&lt;b&gt;');
  });

  it('an escape mode must be chosen', () => {
    expect(() => renderer.render('x', {}, { escape: 'xml' as never })).toThrow(TypeError);
    expect(() => renderer.render('x', {}, { escape: 'constructor' as never })).toThrow(TypeError);
  });
});

describe('no file-system access: include, render and layout cannot read files', () => {
  const renderer = new TemplateRenderer();
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'herald-templating-'));
    file = join(dir, 'secret.liquid');
    writeFileSync(file, 'TOP-SECRET-CONTENT');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['include', 'render', 'layout'])(
    '{%% %s %%} of an existing file is rejected and nothing of the file is rendered',
    (tag) => {
      const source = `before {% ${tag} "${file}" %} after`;
      const { error } = failure(() => renderer.render(source, {}, html));
      expect(error.code).toBe(TemplateErrorCode.Invalid);
      expect(error.message).not.toContain('TOP-SECRET');
      expect(renderer.validate(source)).toEqual([{ message: `tag "${tag}" not found`, line: 1, column: 8 }]);
    },
  );

  it('{% liquid include %} is rejected as well', () => {
    expect(renderer.validate(`{% liquid\n include "${file}" %}`)).toHaveLength(1);
  });
});

describe('limits: oversized templates are rejected, hostile templates fail fast', () => {
  it('a template over the default size limit (512 KiB) is rejected with TEMPLATE_TOO_LARGE', () => {
    const renderer = new TemplateRenderer();
    expect(DEFAULT_TEMPLATE_LIMITS.maxTemplateBytes).toBe(512 * 1024);
    const source = 'x'.repeat(512 * 1024 + 1);
    const { error } = failure(() => renderer.render(source, {}, html));
    expect(error.code).toBe(TemplateErrorCode.TooLarge);
    expect(renderer.validate(source)).toEqual([
      { message: 'template is larger than the limit of 524288 bytes', line: 1, column: 1 },
    ]);
    expect(renderer.render('x'.repeat(512 * 1024), {}, text)).toHaveLength(512 * 1024);
  });

  it('the size limit is configurable and counts UTF-8 bytes, not characters', () => {
    const renderer = new TemplateRenderer({ maxTemplateBytes: 100 });
    expect(renderer.render('€'.repeat(33), {}, text)).toBe('€'.repeat(33)); // 99 bytes
    expect(failure(() => renderer.render('€'.repeat(34), {}, text)).error.code).toBe(TemplateErrorCode.TooLarge); // 34 chars, 102 bytes
  });

  it('a huge loop range ({% for i in (1..100000000) %}) fails on the work limit with a clear error', () => {
    const renderer = new TemplateRenderer();
    const { error } = failure(() => renderer.render('{% for i in (1..100000000) %}x{% endfor %}', {}, html));
    expect(error.code).toBe(TemplateErrorCode.LimitExceeded);
    expect(error.message).toMatch(/work limit/);
  });

  it('a huge range outside a loop fails on the memory limit', () => {
    const renderer = new TemplateRenderer();
    const { error } = failure(() => renderer.render('{% assign r = (1..100000000) %}{{ r | size }}', {}, html));
    expect(error.code).toBe(TemplateErrorCode.LimitExceeded);
    expect(error.message).toMatch(/memory limit/);
  });

  it('a long-running template (nested loops) fails on the time limit', () => {
    const renderer = new TemplateRenderer({ maxRenderSteps: 1e12 });
    const source = '{% for i in (1..3000) %}{% for j in (1..3000) %}x{% endfor %}{% endfor %}';
    const { error } = failure(() => renderer.render(source, {}, text));
    expect(error.code).toBe(TemplateErrorCode.LimitExceeded);
    expect(error.message).toBe(
      `Template rendering exceeded the time limit of ${DEFAULT_TEMPLATE_LIMITS.renderTimeLimitMs} ms`,
    );
    expect(error.problems[0]).toMatchObject({ line: 1 });
  });

  it('the time limit is configurable', () => {
    const renderer = new TemplateRenderer({ renderTimeLimitMs: 50, memoryLimit: 1e12, maxRenderSteps: 1e12 });
    const { error } = failure(() =>
      renderer.render('{% for i in (1..100000) %}{% for j in (1..100000) %}x{% endfor %}{% endfor %}', {}, text),
    );
    expect(error.message).toBe('Template rendering exceeded the time limit of 50 ms');
  });

  it('output growing past the output limit fails as soon as it passes the limit', () => {
    // a generous time limit, so that on a loaded machine only the output limit can stop it
    const renderer = new TemplateRenderer({
      maxOutputLength: 100_000,
      renderTimeLimitMs: 5_000,
      maxRenderSteps: 1e12,
    });
    const { error } = failure(() =>
      renderer.render('{% for i in (1..1000000) %}{{ block }}{% endfor %}', { block: 'y'.repeat(1000) }, text),
    );
    expect(error.code).toBe(TemplateErrorCode.LimitExceeded);
    expect(error.message).toBe('Template output exceeds the limit of 100000 characters');
  });

  it('a doubling {% capture %} loop fails on a limit', () => {
    const renderer = new TemplateRenderer();
    const source =
      '{% assign s = "xxxxxxxx" %}{% for i in (1..64) %}{% capture s %}{{ s }}{{ s }}{% endcapture %}{% endfor %}{{ s }}';
    const { error } = failure(() => renderer.render(source, {}, text));
    expect(error.code).toBe(TemplateErrorCode.LimitExceeded);
  });

  it('string filters count against the memory limit', () => {
    const renderer = new TemplateRenderer({ memoryLimit: 1000 });
    const { error } = failure(() => renderer.render('{{ s | upcase }}', { s: 'a'.repeat(5000) }, text));
    expect(error.code).toBe(TemplateErrorCode.LimitExceeded);
    expect(error.message).toMatch(/memory limit of 1000/);
  });

  it('an ordinary newsletter loop stays well inside the default work, memory and output limits', () => {
    // the wall-clock limit is left out: a cold first render on a loaded machine can pass 250 ms
    const renderer = new TemplateRenderer({ renderTimeLimitMs: 60_000 });
    const items = Array.from({ length: 500 }, (_, i) => ({ title: `Item ${i}`, url: `https://shop.test/${i}` }));
    const out = renderer.render(
      '{% for item in items %}<a href="{{ item.url }}">{{ item.title | upcase }}</a>{% endfor %}',
      { items },
      html,
    );
    expect(out).toContain('<a href="https://shop.test/499">ITEM 499</a>');
  });

  it('a filter given bad input fails with TEMPLATE_RENDER_FAILED and a position', () => {
    const renderer = new TemplateRenderer();
    const { error } = failure(() => renderer.render('line one\n  {{ code | url_decode }}', { code: '%' }, text));
    expect(error.code).toBe(TemplateErrorCode.RenderFailed);
    expect(error.problems).toEqual([{ message: 'URI malformed', line: 2, column: 3 }]);
    expect(error.message).toBe('Template could not be rendered: URI malformed');
  });

  it('rendering an invalid template fails with TEMPLATE_INVALID and every problem', () => {
    const renderer = new TemplateRenderer();
    const { error } = failure(() => renderer.render('{% foo %}\n{{ x | nope }}', {}, text));
    expect(error.code).toBe(TemplateErrorCode.Invalid);
    expect(error.problems).toEqual([
      { message: 'tag "foo" not found', line: 1, column: 1 },
      { message: 'undefined filter: nope', line: 2, column: 1 },
    ]);
    expect(error.message).toBe(
      'Template is not valid: line 1, column 1: tag "foo" not found; line 2, column 1: undefined filter: nope',
    );
  });
});

describe('cache: parsed templates are reused per source, in a bounded LRU cache', () => {
  afterEach(() => jest.restoreAllMocks());

  it('rendering the same source for many recipients parses it once per escape mode', () => {
    const renderer = new TemplateRenderer();
    const parse = jest.spyOn(Parser.prototype, 'parseTokens');
    const source = 'Hi {{ name ?? there }}';
    for (let i = 0; i < 1000; i++) expect(renderer.render(source, { name: `r${i}` }, html)).toBe(`Hi r${i}`);
    renderer.render(source, {}, text);
    expect(parse).toHaveBeenCalledTimes(2);
    expect(renderer.cachedTemplates('html')).toBe(1);
    expect(renderer.cachedTemplates('none')).toBe(1);
  });

  it('an invalid template is not re-parsed for every recipient either', () => {
    const renderer = new TemplateRenderer();
    const parse = jest.spyOn(Parser.prototype, 'parseTokens');
    for (let i = 0; i < 10; i++) expect(() => renderer.render('{% if x %}', {}, html)).toThrow(TemplateError);
    expect(parse.mock.calls.length).toBeLessThanOrEqual(2); // the fail-fast parse plus one validation pass
  });

  it('the cache is bounded by entries: the least recently used template is evicted', () => {
    const renderer = new TemplateRenderer({ cacheEntries: 2 });
    const parse = jest.spyOn(Parser.prototype, 'parseTokens');
    renderer.render('a', {}, text);
    renderer.render('b', {}, text);
    renderer.render('a', {}, text); // a is now the most recently used
    renderer.render('c', {}, text); // evicts b
    expect(renderer.cachedTemplates('none')).toBe(2);
    expect(parse).toHaveBeenCalledTimes(3);
    renderer.render('a', {}, text);
    expect(parse).toHaveBeenCalledTimes(3);
    renderer.render('b', {}, text);
    expect(parse).toHaveBeenCalledTimes(4);
  });

  it('the cache is bounded by total source length', () => {
    const renderer = new TemplateRenderer({ cacheMaxSourceLength: 100 });
    renderer.render('x'.repeat(60), {}, text);
    renderer.render('y'.repeat(60), {}, text);
    expect(renderer.cachedTemplates('none')).toBe(1);
  });

  it('cached templates render each recipient\u2019s own variables', () => {
    const renderer = new TemplateRenderer();
    const source = '{% assign greeting = "Hi" %}{{ greeting }} {{ name }}{% for t in tags %} #{{ t }}{% endfor %}';
    expect(renderer.render(source, { name: 'A', tags: ['x'] }, text)).toBe('Hi A #x');
    expect(renderer.render(source, { name: 'B', tags: [] }, text)).toBe('Hi B');
  });
});

describe('renderMessage: subject without escaping on one line, escaped HTML body, plain-text alternative', () => {
  const renderer = new TemplateRenderer();

  it('renders the three parts with the right escaping', () => {
    const message = renderer.renderMessage(
      {
        subject: 'News for {{ name ?? "you" }}',
        html: '<p>Hi {{ name }}, <a href="{{ unsubscribeUrl }}">unsubscribe</a></p>',
      },
      { name: 'Tom & Jerry', unsubscribeUrl: 'https://h.test/u?a=1&b=2' },
    );
    expect(message).toEqual({
      subject: 'News for Tom & Jerry',
      html: '<p>Hi Tom &amp; Jerry, <a href="https://h.test/u?a=1&amp;b=2">unsubscribe</a></p>',
      text: 'Hi Tom & Jerry, unsubscribe [https://h.test/u?a=1&b=2]',
    });
  });

  it('a given plain-text body is rendered without escaping instead of derived', () => {
    const message = renderer.renderMessage(
      { subject: 's', html: '<p>x</p>', text: 'Hi {{ name }}' },
      { name: '<Ana>' },
    );
    expect(message.text).toBe('Hi <Ana>');
  });

  it('line breaks inserted into a subject are folded into spaces (no header injection)', () => {
    const message = renderer.renderMessage(
      { subject: 'Hi {{ name }}!', html: 'x' },
      { name: 'Ana\r\nBcc: victim@x.test' },
    );
    expect(message.subject).toBe('Hi Ana Bcc: victim@x.test!');
  });
});

describe('parsing takes time linear in the number of tokens', () => {
  afterEach(() => jest.restoreAllMocks());

  // liquidjs' parser takes each token with Array.prototype.shift, which moves every remaining token
  // once the array is large: 70,000 outputs took more than 10 s. The renderer gives the parser a queue.
  it("the parser never takes a token with Array.prototype.shift on the template's whole token list", () => {
    const renderer = new TemplateRenderer({ renderTimeLimitMs: 600_000 }); // the parse is what is looked at
    const source = '{{ a }}'.repeat(5000);
    const shift = Array.prototype.shift;
    let longest = 0;
    jest.spyOn(Array.prototype, 'shift').mockImplementation(function (this: unknown[]) {
      longest = Math.max(longest, this.length);
      return shift.call(this) as unknown;
    });
    const problems = renderer.validate(source);
    const out = renderer.render(source, { a: 'y' }, text);
    jest.restoreAllMocks();
    expect(problems).toEqual([]);
    expect(out).toHaveLength(5000);
    expect(longest).toBeLessThan(1000);
  });
});
