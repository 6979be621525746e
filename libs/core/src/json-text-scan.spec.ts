import { findJsonProblem, type JsonLimits } from './json-limits.js';
import { scanJsonText } from './json-text-scan.js';

const LIMITS: JsonLimits = {
  maxDepth: 4,
  maxKeys: 5,
  maxItems: 6,
  maxValues: 40,
  maxKeyLength: 8,
  maxStringLength: Number.POSITIVE_INFINITY,
};

/** mulberry32, so the random agreement below is the same on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    let t = (state = (state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('scanJsonText: the shape limits read from the text, before parsing', () => {
  it.each([
    ['depth', '{"a":{"b":{"c":{"d":{"e":1}}}}}', 'maxDepth', 'a.b.c.d'],
    ['keys of one object', '{"o":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}}', 'maxKeys', 'o'],
    ['items of one array', '{"list":[1,2,3,4,5,6,7]}', 'maxItems', 'list'],
    ['key length', '{"o":{"abcdefghij":1}}', 'maxKeyLength', 'o.abcdefghij…'],
    [
      'values of the whole body',
      `[${Array.from({ length: 6 }, () => '[1,2,3,4,5,6]').join(',')}]`,
      'maxValues',
      '[5][3]',
    ],
  ])('names the limit and the path as findJsonProblem does: %s', (_rule, text, limit, path) => {
    const scanned = scanJsonText(text, LIMITS);
    expect(scanned).toMatchObject({ limit, path });
    expect(scanned).toEqual(findJsonProblem(JSON.parse(text), LIMITS));
  });

  it('refuses within the limits nothing that findJsonProblem accepts', () => {
    const text = '{"a":[1,{"b":"x\\"y\\\\"},null,true,-1.5e3],"c":{"d":"}]\\u0022"}}';
    expect(findJsonProblem(JSON.parse(text), LIMITS)).toBeUndefined();
    expect(scanJsonText(text, LIMITS)).toBeUndefined();
  });

  it('decodes escaped keys before judging their length (a short key written with escapes is not long)', () => {
    const text = '{"\\u0061\\u0062\\u0063\\u0064\\u0065":1}';
    expect(scanJsonText(text, LIMITS)).toBeUndefined();
    expect(scanJsonText('{"\\u0061\\u0062\\u0063\\u0064\\u0065\\u0066\\u0067\\u0068\\u0069":1}', LIMITS)).toMatchObject(
      {
        limit: 'maxKeyLength',
      },
    );
  });

  it('leaves text that is not well-formed JSON to the parser (reports nothing)', () => {
    for (const text of ['{"a":', '{"a":1]', '"unterminated', ']]]', '{"a" 1 2 3}', ''])
      expect(scanJsonText(text, LIMITS)).toBeUndefined();
  });

  it('counts what the text holds: a key repeated past the limit is refused', () => {
    expect(scanJsonText('{"a":1,"a":2,"a":3,"a":4,"a":5,"a":6}', LIMITS)).toMatchObject({ limit: 'maxKeys' });
  });

  it('agrees with findJsonProblem on whether 5,000 random bodies break a shape limit', () => {
    const rnd = seeded(19);
    const int = (n: number) => Math.floor(rnd() * n);
    const value = (depth: number): unknown => {
      const roll = rnd();
      if (depth > 3 || roll < 0.3) return [1, -2.5, 'x', 'a"b\\c', true, null, '}]', 'k'.repeat(int(12))][int(8)];
      const n = int(7);
      if (roll < 0.6) return Array.from({ length: n }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: n }, () => [`k${'x'.repeat(int(10))}${int(4)}`, value(depth + 1)]),
      );
    };
    let refused = 0;
    for (let i = 0; i < 5000; i++) {
      const v = value(0);
      const text = JSON.stringify(v);
      const expected = findJsonProblem(v, LIMITS);
      const scanned = scanJsonText(text, LIMITS);
      if (Boolean(expected) !== Boolean(scanned))
        throw new Error(`disagree on ${text}: ${JSON.stringify([expected, scanned])}`);
      if (expected) refused++;
    }
    // both outcomes are exercised
    expect(refused).toBeGreaterThan(500);
    expect(refused).toBeLessThan(4500);
  });
});
