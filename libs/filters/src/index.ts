export * from './model.js';
export { parseFilter, type FilterLimits } from './parse-filter.js';
export { FilterProblemCodes } from './problems.js';
export { checkFilter, type CheckContext } from './check-filter.js';
export { matchContact, createMatcher, type FilterContact } from './match-contact.js';
export {
  compileFilter,
  DEFAULT_FILTER_SQL_SCHEMA,
  type CompiledFilter,
  type FilterSqlSchema,
  type SqlContext,
} from './compile-sql.js';
export { referencesOf, type FilterReferences } from './references.js';
export { unitsBefore } from './time-units.js';
export { qualifiesAsDate } from './values.js';
export {
  EVERYTHING,
  mayMatchEmpty,
  readKeysOf,
  readsAnyOf,
  touchedByContactUpdate,
  touchedByCreation,
  unionOfTouched,
  type ReferencedFilter,
  type TouchedKeys,
} from './read-keys.js';
