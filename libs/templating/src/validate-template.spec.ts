import { describeProblem, type TemplateProblem } from './template-errors.js';
import { TemplateRenderer } from './template-renderer.js';
import { validateTemplate } from './index.js';

describe('validateTemplate: parses without rendering, returns [] or positioned problems (1-based line and column)', () => {
  it('a valid template has no problems', () => {
    expect(
      validateTemplate(
        '<p>Hi {{ name ?? there }}</p>{% if vip %}{% for t in tags %}{{ t | upcase }}{% endfor %}{% endif %}',
      ),
    ).toEqual([]);
  });

  it('an unclosed {% if %} is reported at the if tag', () => {
    expect(validateTemplate('<p>Hello</p>\n{% if vip %}\n  <b>VIP</b>\n')).toEqual([
      { message: 'tag {% if vip %} not closed', line: 2, column: 1 },
    ]);
  });

  it('an {% endif %} without an if is reported as tag "endif" not found', () => {
    expect(validateTemplate('Hi\n  {{ name }} {% endif %}')).toEqual([
      { message: 'tag "endif" not found', line: 2, column: 14 },
    ]);
  });

  it('an unknown tag is reported', () => {
    expect(validateTemplate('a\n\nxx {% frobnicate 1 %}')).toEqual([
      { message: 'tag "frobnicate" not found', line: 3, column: 4 },
    ]);
  });

  it('an empty output {{ }} is reported', () => {
    expect(validateTemplate('a\nb {{ }}')).toEqual([{ message: 'invalid value expression: ""', line: 2, column: 6 }]);
  });

  it('an unclosed output {{ is reported', () => {
    expect(validateTemplate('ok\n{{ name')).toEqual([{ message: 'output "{{ name" not closed', line: 2, column: 1 }]);
  });

  it('an unknown filter is reported (a typo is caught when the template is saved)', () => {
    expect(validateTemplate('{{ name | upcasee }}')).toEqual([
      { message: 'undefined filter: upcasee', line: 1, column: 1 },
    ]);
  });

  it('every problem of the template is reported, in source order', () => {
    const problems = validateTemplate('{% foo %}\n{{ a | nope }}\n{% endfor %}');
    expect(problems.map((p) => [p.line, p.column, p.message])).toEqual([
      [1, 1, 'tag "foo" not found'],
      [2, 1, 'undefined filter: nope'],
      [3, 1, 'tag "endfor" not found'],
    ]);
  });

  it('positions count from 1 and follow CRLF line breaks', () => {
    expect(validateTemplate('a\r\nb\r\n   {% nope %}')).toEqual([
      { message: 'tag "nope" not found', line: 3, column: 4 },
    ]);
  });

  // rendering it would take hours: had validation rendered, the test's own timeout would fail it
  it('validation does not render: a hostile loop validates without running', () => {
    expect(
      validateTemplate('{% for i in (1..100000000) %}{% for j in (1..100000000) %}x{% endfor %}{% endfor %}'),
    ).toEqual([]);
  });

  it('a template over the size limit is one problem at line 1, column 1', () => {
    expect(new TemplateRenderer({ maxTemplateBytes: 10 }).validate('01234567890')).toEqual([
      { message: 'template is larger than the limit of 10 bytes', line: 1, column: 1 },
    ]);
  });

  it('describeProblem formats a problem for an API answer', () => {
    const problem: TemplateProblem = { message: 'tag "endif" not found', line: 3, column: 7 };
    expect(describeProblem(problem)).toBe('line 3, column 7: tag "endif" not found');
  });
});
