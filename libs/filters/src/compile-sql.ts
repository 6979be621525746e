/**
 * The SQL evaluator: a filter becomes one PostgreSQL boolean expression over the segments read
 * model. Every value a filter carries (strings, numbers, dates, list values, `data.<path>` keys,
 * event names, segment ids, the project and `now`) is a bind parameter; the statement text holds
 * only identifiers from the schema description (checked against a strict pattern), operators, and
 * constants of this file. A filter cannot inject SQL, and a contact's data cannot make it raise:
 * the one cast (jsonb to numeric) is guarded by jsonb_typeof, and dates are never cast at all.
 */
import { bindFilter, compareCount, type Bound, type DataTest, type Range } from './bind.js';
import type { EvaluationContext, Filter } from './model.js';
import { DATE_SQL_REGEX, escapeLike, mayIndexArray } from './values.js';

/** Where the read model lives. Column names default to the ones below (docs/filters.md, "Read model"). */
export interface FilterSqlSchema {
  contacts: {
    table: string;
    projectId: string;
    contactId: string;
    email: string;
    subscribed: string;
    data: string;
    createdAt: string;
    updatedAt: string;
  };
  events: { table: string; projectId: string; contactId: string; name: string; occurredAt: string };
  emails: { table: string; projectId: string; contactId: string; kind: string; occurredAt: string };
  memberships: { table: string; projectId: string; segmentId: string; contactId: string };
}

export const DEFAULT_FILTER_SQL_SCHEMA: FilterSqlSchema = {
  contacts: {
    table: 'segment_contacts',
    projectId: 'project_id',
    contactId: 'contact_id',
    email: 'email',
    subscribed: 'subscribed',
    data: 'data',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  events: {
    table: 'segment_contact_events',
    projectId: 'project_id',
    contactId: 'contact_id',
    name: 'name',
    occurredAt: 'occurred_at',
  },
  emails: {
    table: 'segment_contact_emails',
    projectId: 'project_id',
    contactId: 'contact_id',
    kind: 'kind',
    occurredAt: 'occurred_at',
  },
  memberships: {
    table: 'segment_memberships',
    projectId: 'project_id',
    segmentId: 'segment_id',
    contactId: 'contact_id',
  },
};

export interface SqlContext extends EvaluationContext {
  projectId: string;
  schema?: FilterSqlSchema;
  /** Alias of the contacts table in the caller's statement (default `c`). */
  alias?: string;
  /** Parameters already in the caller's statement: the filter's are appended (numbering follows). */
  params?: unknown[];
  /**
   * The statement evaluates a few given contacts (a consumer's changed contacts), not a project:
   * each record test (events, engagement, stored membership) is a sub-query run for the contact,
   * probing its own records by key (`OFFSET 0` keeps PostgreSQL from turning it into a join). As a
   * join, the planner may scan the project's records of a name once per contact, which it does
   * when the table's statistics are from before it grew (a new project under load): milliseconds
   * per contact instead of microseconds. The same semantics either way.
   */
  perContact?: boolean;
}

export interface CompiledFilter {
  /** A boolean expression over `<alias>`, the project restriction included. */
  sql: string;
  /** All parameters of the statement (the caller's first, when given). */
  params: unknown[];
}

/**
 * Compiles a filter for `SELECT … FROM <contacts table> <alias> WHERE <sql>`. The expression is
 * TRUE for a matching contact, and FALSE or NULL otherwise: to negate it, use `(<sql>) IS NOT TRUE`.
 */
export function compileFilter(filter: Filter, ctx: SqlContext): CompiledFilter {
  const compiler = new SqlCompiler(ctx);
  const body = compiler.node(bindFilter(filter, ctx));
  const contacts = compiler.schema.contacts;
  return {
    sql: `(${compiler.alias}.${contacts.projectId} = ${compiler.project} AND ${body})`,
    params: compiler.params,
  };
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

function checkIdentifiers(schema: FilterSqlSchema, alias: string): void {
  const names = [alias, ...Object.values(schema).flatMap((t: Record<string, string>) => Object.values(t))];
  for (const name of names)
    if (!IDENTIFIER.test(name)) throw new Error(`filter SQL schema: ${JSON.stringify(name)} is not a plain identifier`);
}

if (DATE_SQL_REGEX.includes("'")) throw new Error('DATE_SQL_REGEX must not hold a quote');

class SqlCompiler {
  readonly schema: FilterSqlSchema;
  readonly alias: string;
  readonly params: unknown[];
  readonly project: string;
  private readonly perContact: boolean;
  private readonly instants = new Map<number, string>();

  constructor(ctx: SqlContext) {
    this.perContact = ctx.perContact === true;
    this.schema = ctx.schema ?? DEFAULT_FILTER_SQL_SCHEMA;
    this.alias = ctx.alias ?? 'c';
    checkIdentifiers(this.schema, this.alias);
    this.params = [...(ctx.params ?? [])];
    this.project = this.param(ctx.projectId, 'text');
  }

  param(value: unknown, type: string): string {
    this.params.push(value);
    return `$${this.params.length}::${type}`;
  }

  /** One parameter per distinct instant (now appears once however many windows use it). */
  instant(ms: number): string {
    let p = this.instants.get(ms);
    if (!p) this.instants.set(ms, (p = this.param(new Date(ms).toISOString(), 'timestamptz')));
    return p;
  }

  /** What ends a record sub-query: in per-contact mode, what keeps it a per-contact probe. */
  get probe(): string {
    return this.perContact ? ' OFFSET 0' : '';
  }

  col(name: keyof FilterSqlSchema['contacts']): string {
    return `${this.alias}.${this.schema.contacts[name]}`;
  }

  node(node: Bound): string {
    return this.compile(node).sql;
  }

  /**
   * `nullable` marks expressions that are NULL rather than FALSE where a value is missing or of
   * another type (so that they keep the plain shape an expression index matches); a negation of
   * one is `IS NOT TRUE`, of the others `NOT` (which the planner turns into an anti join).
   */
  private compile(node: Bound): Sql {
    switch (node.t) {
      case 'const':
        return exact(node.value ? 'TRUE' : 'FALSE');
      case 'and':
      case 'or': {
        if (node.items.length === 0) return exact(node.t === 'and' ? 'TRUE' : 'FALSE');
        const items = node.items.map((i) => this.compile(i));
        return {
          sql: `(${items.map((i) => i.sql).join(node.t === 'and' ? ' AND ' : ' OR ')})`,
          nullable: items.some((i) => i.nullable),
        };
      }
      case 'not': {
        const item = this.compile(node.item);
        return exact(item.nullable ? `(${item.sql} IS NOT TRUE)` : `(NOT ${item.sql})`);
      }
      case 'email': {
        const email = this.col('email');
        if (node.test.k === 'like')
          return exact(`(${email} LIKE ${this.likeParam(node.test.needle, node.test.prefix)})`);
        return exact(
          node.test.values.length === 1
            ? `(${email} = ${this.param(node.test.values[0], 'text')})`
            : `(${email} = ANY(${this.param(node.test.values, 'text[]')}))`,
        );
      }
      case 'subscribed':
        return exact(`(${this.col('subscribed')} = ${this.param(node.value, 'boolean')})`);
      case 'timestamp': {
        const column = this.col(node.column);
        if (node.test.k === 'range') return exact(this.range(column, node.test.range, (v) => this.instant(v)));
        return exact(
          `(${column} = ANY(${this.param(
            node.test.instants.map((ms) => new Date(ms).toISOString()),
            'timestamptz[]',
          )}))`,
        );
      }
      case 'data':
        return this.data(node.keys, node.test);
      case 'activity':
        return exact(this.activity(node));
      case 'member': {
        const m = this.schema.memberships;
        return exact(
          `EXISTS (SELECT 1 FROM ${m.table} m WHERE m.${m.projectId} = ${this.project}` +
            ` AND m.${m.segmentId} = ${this.param(node.segmentId, 'text')} AND m.${m.contactId} = ${this.col('contactId')}${this.probe})`,
        );
      }
    }
  }

  private likeParam(needle: string, prefix: boolean): string {
    const pattern = `${escapeLike(needle)}%`;
    return this.param(prefix ? pattern : `%${pattern}`, 'text');
  }

  private range(expr: string, range: Range, param: (v: number) => string): string {
    const parts: string[] = [];
    if (range.min) parts.push(`${expr} ${range.min.inclusive ? '>=' : '>'} ${param(range.min.v)}`);
    if (range.max) parts.push(`${expr} ${range.max.inclusive ? '<=' : '<'} ${param(range.max.v)}`);
    return parts.length === 0 ? 'TRUE' : `(${parts.join(' AND ')})`;
  }

  /**
   * `data.<path>` tests. Equality is containment (`data @> '{"a":{"b":v}}'`), served by a
   * jsonb_path_ops GIN index. The others read the value with `#>` (the path a text[] parameter)
   * through expressions that cannot raise and that an expression index can match:
   * - numbers: `CASE WHEN jsonb_typeof(v) = 'number' THEN v::numeric END`;
   * - dates: the string, when DATE_SQL_REGEX accepts it, rewritten to the canonical
   *   `YYYY-MM-DDTHH:MM:SS.sssZ` and compared as text in the "C" collation (the canonical form
   *   sorts chronologically); no timestamp cast, so neither DateStyle nor the time zone matter;
   * - strings: `v #>> '{}'` under `jsonb_typeof(v) = 'string'`.
   */
  private data(keys: string[], test: DataTest): Sql {
    const data = this.col('data');
    if (test.k === 'equals') {
      const items = test.values.map((v) => `${data} @> ${this.param(JSON.stringify(nest(keys, v)), 'jsonb')}`);
      return exact(items.length === 1 ? `(${items[0]})` : `(${items.join(' OR ')})`);
    }
    const v = this.valueAt(keys);
    const text = `(${v} #>> '{}')`;
    switch (test.k) {
      case 'exists':
        return exact(`COALESCE(jsonb_typeof(${v}) <> 'null', FALSE)`);
      case 'like':
        return nullable(`(jsonb_typeof(${v}) = 'string' AND ${text} LIKE ${this.likeParam(test.needle, test.prefix)})`);
      case 'numberRange': {
        const number = `(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::numeric END)`;
        return nullable(this.range(number, test.range, (n) => this.param(String(n), 'numeric')));
      }
      case 'dateEquals':
      case 'dateRange': {
        const date = `((CASE WHEN jsonb_typeof(${v}) = 'string' THEN ${canonicalDateSql(text)} END) COLLATE "C")`;
        const iso = (ms: number) => new Date(ms).toISOString();
        return nullable(
          test.k === 'dateRange'
            ? this.range(date, test.range, (ms) => this.param(iso(ms), 'text'))
            : `(${date} = ANY(${this.param(test.instants.map(iso), 'text[]')}))`,
        );
      }
    }
  }

  /**
   * The value at a path, objects only: `#>` would also index arrays with a numeric key, so for
   * each key that could be an index the parent is checked to be an object (as valueAtPath does).
   */
  private valueAt(keys: string[]): string {
    const data = this.col('data');
    const guards: string[] = [];
    keys.forEach((key, i) => {
      if (mayIndexArray(key))
        guards.push(
          i === 0
            ? `jsonb_typeof(${data}) = 'object'`
            : `jsonb_typeof(${data} #> ${this.param(keys.slice(0, i), 'text[]')}) = 'object'`,
        );
    });
    const v = `${data} #> ${this.param(keys, 'text[]')}`;
    return guards.length === 0 ? v : `CASE WHEN ${guards.join(' AND ')} THEN ${v} END`;
  }

  /**
   * Counts of events / engagement records. "At least one" and "none" are EXISTS / NOT EXISTS over
   * the contact's records (semi and anti joins). Other counts group the project's matching records
   * by contact: a comparison false at zero keeps the contacts whose group passes (`IN`, a hash
   * join), one true at zero drops the contacts whose group fails (`NOT EXISTS`, an anti join), so
   * contacts without any record follow the comparison at 0. For one contact, PostgreSQL pushes the
   * contact id into the grouped scan.
   */
  private activity(node: Extract<Bound, { t: 'activity' }>): string {
    const t = node.source === 'event' ? this.schema.events : this.schema.emails;
    const nameCol = node.source === 'event' ? this.schema.events.name : this.schema.emails.kind;
    const where = [`e.${t.projectId} = ${this.project}`, `e.${nameCol} = ${this.param(node.name, 'text')}`];
    if (node.since !== undefined) where.push(`e.${t.occurredAt} >= ${this.instant(node.since)}`);
    if (node.until !== undefined) where.push(`e.${t.occurredAt} <= ${this.instant(node.until)}`);
    const contactId = this.col('contactId');
    const own = `SELECT 1 FROM ${t.table} e WHERE ${where.join(' AND ')} AND e.${t.contactId} = ${contactId}${this.probe}`;
    if (node.cmp === '>=' && node.n === 1) return `EXISTS (${own})`;
    if (node.cmp === '<' && node.n === 1) return `(NOT EXISTS (${own}))`;
    if (this.perContact)
      return `((SELECT count(*) FROM ${t.table} e WHERE ${where.join(' AND ')} AND e.${t.contactId} = ${contactId}) ${node.cmp} ${this.param(node.n, 'bigint')})`;
    const count = `count(*) ${node.cmp} ${this.param(node.n, 'bigint')}`;
    const grouped = (having: string) =>
      `SELECT e.${t.contactId} AS contact_id FROM ${t.table} e WHERE ${where.join(' AND ')}` +
      ` GROUP BY e.${t.contactId} HAVING ${having}`;
    return compareCount(0, node.cmp, node.n)
      ? `(NOT EXISTS (SELECT 1 FROM (${grouped(`NOT (${count})`)}) g WHERE g.contact_id = ${contactId}))`
      : `(${contactId} IN (SELECT g.contact_id FROM (${grouped(count)}) g))`;
  }
}

/**
 * A text expression qualifying as a date (DATE_SQL_REGEX), in the canonical form
 * `YYYY-MM-DDTHH:MM:SS.sssZ` (a bare day is its UTC midnight); NULL for any other text.
 * Built from immutable functions only, so an expression index can hold it.
 */
export function canonicalDateSql(text: string): string {
  return (
    `CASE WHEN ${text} ~ '${DATE_SQL_REGEX}' THEN CASE length(${text}) WHEN 10 THEN ${text} || 'T00:00:00.000Z'` +
    ` WHEN 20 THEN left(${text}, 19) || '.000Z' ELSE ${text} END END`
  );
}

interface Sql {
  sql: string;
  nullable: boolean;
}
const exact = (sql: string): Sql => ({ sql, nullable: false });
const nullable = (sql: string): Sql => ({ sql, nullable: true });

/** `{a: {b: value}}` for keys `['a', 'b']`. */
function nest(keys: string[], value: unknown): unknown {
  return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}
