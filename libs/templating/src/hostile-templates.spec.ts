import { TemplateError, TemplateErrorCode } from './template-errors.js';
import { DEFAULT_TEMPLATE_LIMITS, TemplateRenderer } from './template-renderer.js';

const text = { escape: 'none' } as const;

/** Runs `fn`, expects a TemplateError, returns it. */
function failure(fn: () => unknown): { error: TemplateError } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateError);
    return { error: error as TemplateError };
  }
  throw new Error('expected a TemplateError');
}

const nestedIfs = (depth: number): string => '{% if a %}'.repeat(depth) + 'x' + '{% endif %}'.repeat(depth);

describe('nesting: tags nested deeper than maxNestingDepth (50) are refused before parsing, in linear time', () => {
  const depthMessage = 'tags are nested deeper than the limit of 50 levels';

  it('the default depth limit is 50: 50 nested {% if %} render, 51 are refused at the 51st tag', () => {
    const renderer = new TemplateRenderer();
    expect(DEFAULT_TEMPLATE_LIMITS.maxNestingDepth).toBe(50);
    expect(renderer.render(nestedIfs(50), { a: true }, text)).toBe('x');
    expect(renderer.validate(nestedIfs(51))).toEqual([{ message: depthMessage, line: 1, column: 50 * 10 + 1 }]);
    const { error } = failure(() => renderer.render(nestedIfs(51), { a: true }, text));
    expect(error.code).toBe(TemplateErrorCode.Invalid);
    expect(error.message).toBe(`Template is not valid: line 1, column 501: ${depthMessage}`);
  });

  // liquidjs' own parser takes seconds on these, then overflows its stack: an answer naming the 51st
  // tag's column can only come from the linear pre-pass that runs before it
  it('10,000 nested {% if %} (240 KB, under the size limit) are refused by validate and render at the 51st tag', () => {
    const renderer = new TemplateRenderer();
    const source = nestedIfs(10_000);
    expect(source.length).toBeLessThan(DEFAULT_TEMPLATE_LIMITS.maxTemplateBytes);
    expect(renderer.validate(source)).toEqual([{ message: depthMessage, line: 1, column: 501 }]);
    const { error } = failure(() => renderer.render(source, { a: true }, text));
    expect(error.problems).toEqual([{ message: depthMessage, line: 1, column: 501 }]);
  });

  it('mixed block tags (for, unless, case, capture, tablerow) count towards the depth', () => {
    const renderer = new TemplateRenderer({ maxNestingDepth: 5 });
    const five = '{% for i in xs %}{% unless b %}{% case c %}{% when 1 %}{% capture d %}{% tablerow t in xs %}';
    const closes = '{% endtablerow %}{% endcapture %}{% endcase %}{% endunless %}{% endfor %}';
    expect(renderer.validate(`${five}{% if a %}x{% endif %}${closes}`)).toEqual([
      { message: 'tags are nested deeper than the limit of 5 levels', line: 1, column: five.length + 1 },
    ]);
    expect(
      renderer.validate(
        '{% for i in xs %}{% unless b %}{% case c %}{% when 1 %}{% capture d %}x{% endcapture %}{% endcase %}{% endunless %}{% endfor %}',
      ),
    ).toEqual([]);
  });

  it('more than 10,000 tags and outputs are refused before parsing, at the 10,001st, by validate and render', () => {
    const renderer = new TemplateRenderer();
    expect(DEFAULT_TEMPLATE_LIMITS.maxTags).toBe(10_000);
    const message = 'the template has more than the limit of 10000 tags and outputs';
    expect(renderer.validate('{{ a }}'.repeat(10_000))).toEqual([]);
    const source = '{{ a }}\n'.repeat(70_000); // 560 KB would be too large: 70,000 lines of 8 bytes
    const within = source.slice(0, 500 * 1024);
    expect(renderer.validate(within)).toEqual([{ message, line: 10_001, column: 1 }]);
    const { error } = failure(() => renderer.render(within, { a: 'x' }, text));
    expect(error.code).toBe(TemplateErrorCode.Invalid);
    expect(error.problems).toEqual([{ message, line: 10_001, column: 1 }]);
  });

  it('sibling blocks do not add up: 1,000 consecutive {% if %} blocks are fine', () => {
    const renderer = new TemplateRenderer();
    expect(renderer.validate('{% if a %}x{% endif %}'.repeat(1000))).toEqual([]);
  });

  it('nesting inside {% liquid %} lines counts too', () => {
    const renderer = new TemplateRenderer();
    const source = `{% liquid\n${'if a\n'.repeat(10_000)}echo "x"\n${'endif\n'.repeat(10_000)}%}`;
    expect(renderer.validate(source)).toEqual([{ message: depthMessage, line: 51, column: 1 }]); // the liquid tag is level 1
  });

  it('tags inside {% comment %} and {% raw %} do not nest', () => {
    const renderer = new TemplateRenderer({ maxNestingDepth: 2 });
    expect(renderer.validate(`{% comment %}${'{% if a %}'.repeat(10)}{% endcomment %}ok`)).toEqual([]);
    expect(renderer.render(`{% raw %}${'{% if a %}'.repeat(10)}{% endraw %}`, {}, text)).toBe('{% if a %}'.repeat(10));
  });
});

describe('work: a render stops after maxRenderSteps (1,000,000) tags, outputs and loop iterations', () => {
  const workMessage = `Template rendering exceeded the work limit of ${DEFAULT_TEMPLATE_LIMITS.maxRenderSteps} steps (tags, outputs and loop iterations)`;

  // The time limit is raised in these tests so that only the work limit can stop a render (under a
  // loaded machine the 250 ms limit could otherwise fire first). A range of 10^12 items cannot be
  // built at all (no array holds it): refused on the work limit, it was charged before being built.
  const onlyWork = { renderTimeLimitMs: 600_000 };

  it.each([
    ['tablerow', '{% tablerow i in (1..1000000000000) %}{% endtablerow %}'],
    ['cycle', '{% for i in (1..1000000000000) %}{% cycle "a", "b" %}{% endfor %}'],
    ['increment', '{% for i in (1..1000000000000) %}{% increment x %}{% endfor %}'],
  ])('a 10^12-iteration %s loop is refused on the work limit, before its range is built', (_name, source) => {
    const renderer = new TemplateRenderer(onlyWork);
    const { error } = failure(() => renderer.render(source, {}, text));
    expect(error.code).toBe(TemplateErrorCode.LimitExceeded);
    expect(error.message).toBe(workMessage);
  });

  it('a range loop is charged before its range is built, from variables too', () => {
    const renderer = new TemplateRenderer(onlyWork);
    const { error } = failure(() =>
      renderer.render('{% for i in (1..n) %}{% increment x %}{% endfor %}', { n: 1_000_000_000_000 }, text),
    );
    expect(error.message).toBe(workMessage);
  });

  it('every tag rendered counts: a loop over data stops once its body has done maxRenderSteps steps', () => {
    const renderer = new TemplateRenderer({ ...onlyWork, maxRenderSteps: 1000 });
    const items = Array.from({ length: 400 }, (_, i) => i);
    expect(
      renderer.render('{% for i in items %}{% cycle "a", "b" %}{% endfor %}', { items: items.slice(0, 300) }, text),
    ).toHaveLength(300);
    const { error } = failure(() =>
      renderer.render('{% for i in items %}{% cycle "a", "b" %}{% increment n %}{% endfor %}', { items }, text),
    );
    expect(error.message).toBe(
      'Template rendering exceeded the work limit of 1000 steps (tags, outputs and loop iterations)',
    );
  });

  it('an ordinary newsletter (500 items, several tags each) stays well inside the work limit', () => {
    const renderer = new TemplateRenderer({ renderTimeLimitMs: 10_000 }); // only the work limit can stop it
    const items = Array.from({ length: 500 }, (_, i) => ({ title: `Item ${i}`, url: `https://shop.test/${i}` }));
    const out = renderer.render(
      '{% for item in items %}{% if item.url %}<a href="{{ item.url }}">{{ item.title | upcase }}</a>{% endif %}{% cycle ",", ";" %}{% endfor %}{% tablerow i in (1..20) cols: 4 %}{{ i }}{% endtablerow %}',
      { items },
      text,
    );
    expect(out).toContain('<a href="https://shop.test/499">ITEM 499</a>');
  });
});
