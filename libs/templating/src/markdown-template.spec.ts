import { Liquid } from 'liquidjs';
import { htmlToPlainText } from './html-to-plain-text.js';
import { validateTemplate } from './index.js';
import { markdownTemplate } from './markdown-template.js';
import { TemplateError, TemplateErrorCode } from './template-errors.js';
import { TemplateRenderer } from './template-renderer.js';

const markdown = { escape: 'html', format: 'markdown' } as const;

/** Renders a Markdown body as an email body is rendered: converted, then Liquid with HTML escaping. */
const render = (source: string, variables: Record<string, unknown> = {}, renderer = new TemplateRenderer()) =>
  renderer.render(source, variables, markdown);

function failure(fn: () => unknown): TemplateError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateError);
    return error as TemplateError;
  }
  throw new Error('expected a TemplateError');
}

describe('Markdown bodies: converted to HTML (CommonMark with tables, strikethrough and links)', () => {
  it('headings, emphasis and strong emphasis become <h1>…<h6>, <em> and <strong>', () => {
    expect(render('# Welcome\n\n## Next steps\n\nThis is **bold**, *italic* and _also italic_.')).toBe(
      '<h1>Welcome</h1>\n<h2>Next steps</h2>\n<p>This is <strong>bold</strong>, <em>italic</em> and <em>also italic</em>.</p>\n',
    );
  });

  it('bullet and numbered lists become <ul> and <ol> with one <li> per item', () => {
    expect(render('- one\n- two\n\n1. first\n2. second')).toBe(
      '<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>first</li>\n<li>second</li>\n</ol>\n',
    );
  });

  it('links, bare https:// URLs and tables become <a> and <table>; a bare domain stays text', () => {
    const html = render(
      '[Docs](https://docs.test/a?b=1) or https://herald.test/x, not Herald.app\n\n| a |\n|---|\n| 1 |',
    );
    expect(html).toContain('<a href="https://docs.test/a?b=1">Docs</a>');
    expect(html).toContain('<a href="https://herald.test/x">https://herald.test/x</a>');
    expect(html).toContain('not Herald.app');
    expect(html).toContain('<table>');
  });

  it('raw HTML written in the Markdown is kept; a javascript: link is no link', () => {
    const html = render('<div align="center">Hi</div>\n\n[click](javascript:alert(1)) <b>b</b>');
    expect(html).toContain('<div align="center">Hi</div>');
    expect(html).toContain('<b>b</b>');
    expect(html).not.toContain('href="javascript');
  });

  it('the plain-text part derived from the converted HTML has no Markdown syntax left', () => {
    const text = htmlToPlainText(render('# Welcome\n\nThis is **bold** and [a link](https://docs.test/).'));
    expect(text).toBe('WELCOME\n\nThis is bold and a link [https://docs.test/].');
  });
});

describe('Markdown bodies: Liquid survives the conversion as the author wrote it', () => {
  it('a link whose target is a Liquid output keeps it (no percent-encoded braces) and renders the value', () => {
    expect(render('[Unsubscribe]({{unsubscribeUrl}})', { unsubscribeUrl: 'https://h.test/u?a=1&b=2' })).toBe(
      '<p><a href="https://h.test/u?a=1&amp;b=2">Unsubscribe</a></p>\n',
    );
    expect(render('[Open]( {{ base }}/p/{{ id }} )', { base: 'https://h.test', id: 7 })).toBe(
      '<p><a href="https://h.test/p/7">Open</a></p>\n',
    );
  });

  it('underscores, stars and quotes inside {{ … }} are Liquid, never emphasis', () => {
    expect(
      render('Hello {{ first_name | default: "there" }}, {{ a_b }} *{{ plan_name }}* {{ 2 | times: 3 }}', {
        a_b: 'x',
        plan_name: 'Pro',
      }),
    ).toBe('<p>Hello there, x <em>Pro</em> 6</p>\n');
  });

  it('a line of Liquid tags is no paragraph: {% if %} around blocks gives well-formed HTML either way', () => {
    const source = 'Hi\n{% if plan == "pro" %}\n## Pro\n\n- a\n- b\n{% endif %}\nBye';
    expect(render(source, { plan: 'pro' })).toBe(
      '<p>Hi</p>\n\n<h2>Pro</h2>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n\n<p>Bye</p>\n',
    );
    expect(render(source, { plan: 'free' })).toBe('<p>Hi</p>\n\n<p>Bye</p>\n');
  });

  it('tags inside a line stay inline, and {% for %} repeats Markdown blocks', () => {
    expect(render('You are {% if vip %}**VIP**{% else %}a member{% endif %}.', { vip: true })).toBe(
      '<p>You are <strong>VIP</strong>.</p>\n',
    );
    expect(render('{% for p in products %}\n### {{ p }}\n{% endfor %}', { products: ['A', 'B'] })).toBe(
      '\n<h3>A</h3>\n\n<h3>B</h3>\n\n',
    );
  });

  it('a Liquid span inside code stays Liquid; {% raw %} text stays as written', () => {
    expect(render('`{{ code }}` and {% raw %}{{ kept }}{% endraw %}', { code: 'x' })).toBe(
      '<p><code>x</code> and {{ kept }}</p>\n',
    );
  });

  it('text that looks like a placeholder is left as written', () => {
    expect(render('lq0z lqx0z lqxx1z {{ a }}', { a: 'A' })).toBe('<p>lq0z lqx0z lqxx1z A</p>\n');
  });

  it('the converted template holds each Liquid span exactly as written', () => {
    const source = '# {{ title ?? "Hi" }}\n\n{%- if a -%}\n[x]({{ url | append: "?q=1" }})\n{% endif %}';
    const { html } = markdownTemplate(source, new Liquid().options);
    for (const span of ['{{ title ?? "Hi" }}', '{%- if a -%}', '{{ url | append: "?q=1" }}', '{% endif %}'])
      expect(html).toContain(span);
  });
});

describe('Markdown bodies: contact data is escaped as in HTML bodies and cannot add markup', () => {
  it('a value holding Markdown or HTML renders as text, in text, in a link text and in a link target', () => {
    const hostile = '**x** [a](https://evil.test) <script>alert(1)</script> # h _y_';
    const html = render('Hi {{ name }}\n\n[{{ name }}]({{ url }})\n\n- {{ name }}', {
      name: hostile,
      url: 'https://ok.test/" onclick="alert(1)',
    });
    expect(html).not.toMatch(/<strong>|<em>|<script>|<h1>|evil\.test">/);
    expect(html).toContain('**x** [a](https://evil.test) &lt;script&gt;alert(1)&lt;/script&gt; # h _y_');
    expect(html).toContain('href="https://ok.test/&#34; onclick=&#34;alert(1)"');
  });
});

describe('Markdown bodies: converted once per source, problems positioned in the Markdown', () => {
  it('the same Markdown rendered for many contacts is converted and parsed once (cached by content)', () => {
    const renderer = new TemplateRenderer();
    for (const name of ['Ada', 'Bob', 'Cy']) expect(render('# Hi {{ name }}', { name }, renderer)).toContain(name);
    expect(renderer.cachedTemplates('markdown')).toBe(1);
    expect(renderer.cachedTemplates('html')).toBe(0);
  });

  it('a Liquid syntax error is reported at its line and column in the Markdown source', () => {
    const error = failure(() => render('# Title\n\n**Hi** {{ name | nofilter }}'));
    expect(error.code).toBe(TemplateErrorCode.Invalid);
    expect(error.problems).toEqual([expect.objectContaining({ line: 3, column: 8 })]);
    expect(failure(() => render('# T\n\nx {{ a ')).problems[0]).toMatchObject({ line: 3, column: 3 });
  });

  it('a render failure is reported at the output that failed, in the Markdown source', () => {
    const error = failure(() => render('# T\n\n- a\n- **b** {{ v | url_decode }}', { v: '%E0%A4%A' }));
    expect(error.code).toBe(TemplateErrorCode.RenderFailed);
    expect(error.problems).toEqual([expect.objectContaining({ line: 4, column: 9 })]);
  });

  it('a Markdown source is held to maxMarkdownBytes (128 KiB) at render and by validateTemplate; HTML of that size is not', () => {
    const big = `# Big\n\n${'word '.repeat(27_000)}`; // 135,009 bytes
    expect(failure(() => render(big)).code).toBe(TemplateErrorCode.TooLarge);
    expect(validateTemplate(big, { format: 'markdown' })).toEqual([
      { message: 'Markdown template is larger than the limit of 131072 bytes', line: 1, column: 1 },
    ]);
    expect(validateTemplate(big)).toEqual([]);
    expect(render(big.slice(0, 128 * 1024))).toMatch(/^<h1>Big<\/h1>/);
  });

  it('Markdown renders HTML: it cannot be asked without HTML escaping', () => {
    expect(() => new TemplateRenderer().render('x', {}, { escape: 'none', format: 'markdown' })).toThrow(TypeError);
  });
});
