import { Tokenizer, TypeGuards, type Liquid, type TagToken, type TopLevelToken } from 'liquidjs';
import { lineAndColumn, type TemplateProblem } from './template-errors.js';

/** Block tags: each opens a level that its `end…` tag closes. */
const BLOCK_TAGS = new Set(['if', 'unless', 'for', 'case', 'capture', 'tablerow', 'raw']);

/**
 * Refuses a template whose tags nest deeper than `maxDepth`, or that holds more than `maxTags` tags
 * and outputs, before liquidjs parses it: liquidjs'
 * parser recurses once per nested block, so 10,000 nested `{% if %}` take seconds and then overflow
 * the stack. This pass only tokenizes (liquidjs' tokenizer, linear in the source) and counts, so it
 * takes linear time whatever the nesting. `{% liquid %}` tags count as a level and their lines are
 * counted as tags; `{% comment %}` bodies are skipped as liquidjs skips them.
 *
 * Returns the problem at the first tag past the limit, or `undefined` (also when the source does not
 * tokenize: the parser reports that).
 */
export function nestingProblem(
  source: string,
  options: Liquid['options'],
  maxDepth: number,
  maxTags = Number.POSITIVE_INFINITY,
): TemplateProblem | undefined {
  let tokens: TopLevelToken[];
  try {
    tokens = new Tokenizer(
      source,
      options.operators,
      undefined,
      undefined,
      options.groupedExpressions,
    ).readTopLevelTokens(options);
  } catch {
    return undefined;
  }
  const tooDeep = deepestTag(tokens, options, maxDepth, 0);
  if (tooDeep)
    return {
      message: `tags are nested deeper than the limit of ${maxDepth} levels`,
      ...lineAndColumn(source, tooDeep.begin),
    };
  const tooMany = tagPastLimit(tokens, maxTags);
  if (!tooMany) return undefined;
  return {
    message: `the template has more than the limit of ${maxTags} tags and outputs`,
    ...lineAndColumn(source, tooMany.begin),
  };
}

/**
 * The first tag or output past `maxTags` at the top level (a `{% liquid %}` tag counts as one):
 * liquidjs builds objects for each when it parses, so their number bounds how long a parse (and a
 * template's validation when it is saved) can take.
 */
function tagPastLimit(tokens: readonly TopLevelToken[], maxTags: number): TopLevelToken | undefined {
  let seen = 0;
  for (const token of tokens) if (!TypeGuards.isHTMLToken(token) && ++seen > maxTags) return token;
  return undefined;
}

/** The first tag that opens a level past `maxDepth`, counting from `baseDepth`. */
function deepestTag(
  tokens: readonly TopLevelToken[],
  options: Liquid['options'],
  maxDepth: number,
  baseDepth: number,
): TagToken | undefined {
  const open: string[] = [];
  let inComment = false;
  for (const token of tokens) {
    if (!TypeGuards.isTagToken(token)) continue;
    const name = token.name;
    if (inComment) {
      inComment = name !== 'endcomment';
      continue;
    }
    if (name === 'comment') {
      inComment = true;
      continue;
    }
    if (name === 'liquid') {
      if (baseDepth + open.length + 1 > maxDepth) return token;
      let lines: TopLevelToken[];
      try {
        lines = token.tokenizer.readLiquidTagTokens(options);
      } catch {
        continue; // the parser reports it
      }
      const inner = deepestTag(lines, options, maxDepth, baseDepth + open.length + 1);
      if (inner) return inner;
      continue;
    }
    if (BLOCK_TAGS.has(name)) {
      open.push(name);
      if (baseDepth + open.length > maxDepth) return token;
    } else if (name.startsWith('end') && open[open.length - 1] === name.slice(3)) {
      open.pop();
    }
  }
  return undefined;
}
