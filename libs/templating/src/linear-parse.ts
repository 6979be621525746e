import { Tokenizer, type Liquid, type Template, type TopLevelToken } from 'liquidjs';

/**
 * The tokens of a template as liquidjs' parser consumes them (`shift()` until empty, `length`), in
 * constant time per token. liquidjs hands its parser a plain array and takes each token with
 * `Array.prototype.shift`, which moves every remaining element once the array is large: parsing
 * 70,000 outputs (`{{ a }}` × 70,000, under the 512 KiB size limit) took 10 s and more, quadratic
 * in the number of tokens.
 */
class TokenQueue {
  private head = 0;

  constructor(private readonly tokens: TopLevelToken[]) {}

  shift(): TopLevelToken | undefined {
    if (this.head >= this.tokens.length) return undefined;
    const token = this.tokens[this.head];
    this.tokens[this.head++] = undefined as unknown as TopLevelToken; // let the parsed tokens go
    return token;
  }

  get length(): number {
    return this.tokens.length - this.head;
  }
}

/** The top-level tokens of `source` (text, outputs, tags) as liquidjs' own tokenizer reads them with these options. */
export function topLevelTokens(source: string, options: Liquid['options']): TopLevelToken[] {
  return new Tokenizer(source, options.operators, undefined, undefined, options.groupedExpressions).readTopLevelTokens(
    options,
  );
}

/**
 * `engine.parse(source)` in time linear in the number of tokens: liquidjs' own tokenizer, then its
 * parser over a {@link TokenQueue}. Same templates, same errors.
 */
export function parseLinear(engine: Liquid, source: string): Template[] {
  const tokens = topLevelTokens(source, engine.options);
  return engine.parser.parseTokens(new TokenQueue(tokens) as unknown as TopLevelToken[]);
}
