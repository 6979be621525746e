import { Liquid } from 'liquidjs';
import { originalOffset, rewriteNullishDefaults } from './nullish-default.js';
import { TemplateRenderer, type EscapeMode } from './template-renderer.js';

const renderer = new TemplateRenderer();
const options = new Liquid().options;

interface Row {
  rule: string;
  source: string;
  variables: Record<string, unknown>;
  escape: EscapeMode;
  expected: string;
}

describe('{{ field ?? default }}: the default replaces a missing or null value, nothing else', () => {
  const rows: Row[] = [
    {
      rule: 'missing → default',
      source: 'Hi {{ name ?? "friend" }}',
      variables: {},
      escape: 'none',
      expected: 'Hi friend',
    },
    {
      rule: 'null → default',
      source: 'Hi {{ name ?? "friend" }}',
      variables: { name: null },
      escape: 'none',
      expected: 'Hi friend',
    },
    {
      rule: 'a present value wins over the default',
      source: 'Hi {{ name ?? "friend" }}',
      variables: { name: 'Ana' },
      escape: 'none',
      expected: 'Hi Ana',
    },
    {
      rule: '0 → 0 (not the default)',
      source: '{{ count ?? 5 }}',
      variables: { count: 0 },
      escape: 'none',
      expected: '0',
    },
    {
      rule: 'false → false (not the default)',
      source: '{{ vip ?? "yes" }}',
      variables: { vip: false },
      escape: 'none',
      expected: 'false',
    },
    {
      rule: '"" → "" (not the default)',
      source: '[{{ name ?? "friend" }}]',
      variables: { name: '' },
      escape: 'none',
      expected: '[]',
    },
    {
      rule: 'double-quoted default loses its quotes',
      source: '{{ name ?? "friend" }}',
      variables: {},
      escape: 'none',
      expected: 'friend',
    },
    {
      rule: 'single-quoted default loses its quotes',
      source: "{{ name ?? 'friend' }}",
      variables: {},
      escape: 'none',
      expected: 'friend',
    },
    {
      rule: 'quoted default keeps inner spaces and quotes of the other kind',
      source: `{{ name ?? "dear 'friend'" }}`,
      variables: {},
      escape: 'none',
      expected: "dear 'friend'",
    },
    {
      rule: 'unquoted default is literal text',
      source: 'Hi {{ name ?? there }}',
      variables: {},
      escape: 'none',
      expected: 'Hi there',
    },
    {
      rule: 'unquoted default is never a variable lookup',
      source: '{{ name ?? there }}',
      variables: { there: 'LOOKED UP' },
      escape: 'none',
      expected: 'there',
    },
    { rule: 'unquoted number default', source: '{{ count ?? 0 }}', variables: {}, escape: 'none', expected: '0' },
    {
      rule: 'unquoted multi-word default',
      source: '{{ name ?? dear customer }}',
      variables: {},
      escape: 'none',
      expected: 'dear customer',
    },
    {
      rule: 'unquoted default with a backslash stays literal',
      source: '{{ path ?? C:\\temp }}',
      variables: {},
      escape: 'none',
      expected: 'C:\\temp',
    },
    {
      rule: 'empty unquoted default renders empty',
      source: '[{{ name ?? }}]',
      variables: {},
      escape: 'none',
      expected: '[]',
    },
    {
      rule: 'no spaces around ?? (double quotes)',
      source: '{{name??"friend"}}',
      variables: {},
      escape: 'none',
      expected: 'friend',
    },
    {
      rule: 'no spaces around ?? (single quotes)',
      source: "{{name??'friend'}}",
      variables: {},
      escape: 'none',
      expected: 'friend',
    },
    {
      rule: 'no spaces around ?? (unquoted)',
      source: '{{name??friend}}',
      variables: {},
      escape: 'none',
      expected: 'friend',
    },
    {
      rule: 'extra spaces around ??',
      source: '{{   name    ??    "friend"   }}',
      variables: {},
      escape: 'none',
      expected: 'friend',
    },
    {
      rule: 'whitespace-control dashes keep working',
      source: 'a  {{- name ?? x -}}  b',
      variables: {},
      escape: 'none',
      expected: 'axb',
    },
    {
      rule: 'dotted path with default: missing leaf',
      source: '{{ profile.tier ?? "free" }}',
      variables: { profile: {} },
      escape: 'none',
      expected: 'free',
    },
    {
      rule: 'dotted path with default: missing parent',
      source: '{{ profile.tier ?? free }}',
      variables: {},
      escape: 'none',
      expected: 'free',
    },
    {
      rule: 'dotted path with default: null leaf',
      source: '{{ profile.tier ?? free }}',
      variables: { profile: { tier: null } },
      escape: 'none',
      expected: 'free',
    },
    {
      rule: 'dotted path with default: present leaf',
      source: '{{ profile.tier ?? free }}',
      variables: { profile: { tier: 'gold' } },
      escape: 'none',
      expected: 'gold',
    },
    {
      rule: 'filters after the default apply to the default',
      source: '{{ name ?? "friend" | upcase }}',
      variables: {},
      escape: 'none',
      expected: 'FRIEND',
    },
    {
      rule: 'filters after the default apply to the value',
      source: '{{ name ?? "friend" | upcase }}',
      variables: { name: 'ana' },
      escape: 'none',
      expected: 'ANA',
    },
    {
      rule: 'filters after an unquoted default',
      source: '{{ name ?? dear friend | capitalize }}',
      variables: {},
      escape: 'none',
      expected: 'Dear friend',
    },
    {
      rule: 'filter arguments after the default',
      source: '{{ n ?? 1 | plus: 2 }}',
      variables: {},
      escape: 'none',
      expected: '3',
    },
    {
      rule: 'a | inside a quoted default is text, not a filter',
      source: '{{ name ?? "a | b" }}',
      variables: {},
      escape: 'none',
      expected: 'a | b',
    },
    {
      rule: 'a ?? inside a quoted string is text',
      source: '{{ "a ?? b" }}',
      variables: {},
      escape: 'none',
      expected: 'a ?? b',
    },
    {
      rule: 'a ?? inside a filter argument is text',
      source: '{{ name | append: " ??" }}',
      variables: { name: 'x' },
      escape: 'none',
      expected: 'x ??',
    },
    {
      rule: 'several defaults in one template',
      source: '{{ a ?? 1 }}-{{ b ?? "2" }}-{{ c ?? 3 }}',
      variables: { b: 'B' },
      escape: 'none',
      expected: '1-B-3',
    },
    {
      rule: 'escaped value in HTML mode',
      source: '<p>{{ name ?? "friend" }}</p>',
      variables: { name: '<b>"Ana" & \'Bo\'</b>' },
      escape: 'html',
      expected: '<p>&lt;b&gt;&#34;Ana&#34; &amp; &#39;Bo&#39;&lt;/b&gt;</p>',
    },
    {
      rule: 'escaped default in HTML mode',
      source: '<p>{{ name ?? "<friend>" }}</p>',
      variables: {},
      escape: 'html',
      expected: '<p>&lt;friend&gt;</p>',
    },
    {
      rule: 'escaped unquoted default in HTML mode',
      source: '<p>{{ name ?? <friend> & co }}</p>',
      variables: {},
      escape: 'html',
      expected: '<p>&lt;friend&gt; &amp; co</p>',
    },
    {
      rule: 'unescaped in text mode',
      source: '{{ name ?? "friend" }}',
      variables: { name: '<b>"Ana" & Bo</b>' },
      escape: 'none',
      expected: '<b>"Ana" & Bo</b>',
    },
    {
      rule: 'unescaped default in text mode',
      source: '{{ name ?? <friend> & co }}',
      variables: {},
      escape: 'none',
      expected: '<friend> & co',
    },
    {
      rule: '?? inside a raw block is left as text',
      source: '{% raw %}{{ a ?? b }}{% endraw %}',
      variables: {},
      escape: 'none',
      expected: '{{ a ?? b }}',
    },
    {
      rule: 'quoted default works in an {% if %} tag too',
      source: '{% if name ?? "x" %}yes{% endif %}',
      variables: {},
      escape: 'none',
      expected: 'yes',
    },
  ];

  it.each(rows)('$rule', ({ source, variables, escape, expected }) => {
    expect(renderer.render(source, variables, { escape })).toBe(expected);
  });

  it('a default after a filter is a syntax error (write filters after the default)', () => {
    expect(renderer.validate('{{ name | upcase ?? "x" }}')).toHaveLength(1);
  });

  it('an unquoted default containing a quote is a syntax error (quote the default instead)', () => {
    expect(renderer.validate("{{ name ?? it's }}")).toHaveLength(1);
    expect(renderer.render(`{{ name ?? "it's" }}`, {}, { escape: 'none' })).toBe("it's");
  });

  it('a template with ?? validates without problems', () => {
    expect(renderer.validate('Hi {{name??there}}, {{ profile.tier ?? "free" | upcase }}')).toEqual([]);
  });
});

describe('the ?? rewrite keeps error positions in the author\u2019s coordinates', () => {
  it('an edit is recorded per output with ??, tags and plain text are untouched', () => {
    const source = 'x ?? y {% if a %}{{ a ?? b }}{% endif %} {{ c }}';
    const { source: rewritten, edits } = rewriteNullishDefaults(source, options);
    expect(edits).toHaveLength(1);
    expect(rewritten).toMatch(/^x \?\? y \{% if a %\}\{\{ a\s+\?\? "b"\s+\}\}\{% endif %\} \{\{ c \}\}$/);
  });

  it('offsets after an edit map back to the original source', () => {
    const source = '{{a??b}} {{ c | nope }}';
    const { source: rewritten, edits } = rewriteNullishDefaults(source, options);
    const rewrittenAt = rewritten.indexOf('{{ c');
    expect(originalOffset(rewrittenAt, edits)).toBe(source.indexOf('{{ c'));
    expect(originalOffset(0, edits)).toBe(0);
  });

  it('an error after a rewritten default on the same line has the column the author sees', () => {
    const source = 'Hi {{ name ?? dear friend }} {{ x | nope }}';
    expect(renderer.validate(source)).toEqual([
      { message: 'undefined filter: nope', line: 1, column: source.indexOf('{{ x') + 1 },
    ]);
  });

  it('a source that does not tokenize is returned unchanged', () => {
    const source = '{{ a ?? b';
    expect(rewriteNullishDefaults(source, options)).toEqual({ source, edits: [] });
  });
});
