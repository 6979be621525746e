import { getMetadataStorage, ValidationTypes, type ValidationArguments } from 'class-validator';

/** A class's class-validator rules, resolved once. */
export interface ValidityCheck {
  /** Whether the instance breaks none of the rules (false also when a nested value is of a class this cannot decide). */
  isValid(instance: object): boolean;
  /** The properties that have rules (what `whitelist` keeps). */
  readonly properties: ReadonlySet<string>;
  /**
   * Deletes what `whitelist` strips from a valid instance: the properties without rules, and those
   * of every object its nested properties hold (by each one's own class), as class-validator does.
   */
  strip(instance: object): void;
}

type Rule = {
  property: string;
  /** `IsOptional` and `ValidateIf`: the property's rules apply only when all of these hold. */
  conditions: ((object: object, value: unknown) => boolean)[];
  checks: { validate: (value: unknown, args: ValidationArguments) => unknown; constraints: unknown[]; each: boolean }[];
  /** `ValidateNested`: the objects the value holds are validated by their own classes' rules. */
  nested: boolean;
};

/** The checks of nested values' classes, compiled when first met (undefined: left to class-validator). */
const nestedChecks = new Map<unknown, ValidityCheck | undefined>();
const checkOfNested = (cls: unknown): ValidityCheck | undefined => {
  if (!nestedChecks.has(cls)) {
    nestedChecks.set(cls, undefined); // a class nested in itself is left to class-validator
    const check = typeof cls === 'function' ? compileValidityCheck(cls as new () => object) : undefined;
    // a class without rules has every property stripped by `whitelist`: left to class-validator too
    nestedChecks.set(cls, check && check.properties.size > 0 ? check : undefined);
  }
  return nestedChecks.get(cls);
};

/** The items of a value class-validator's nested validation walks into (arrays, sets, maps), or undefined. */
const itemsOf = (value: unknown): unknown[] | undefined =>
  Array.isArray(value)
    ? value
    : value instanceof Set || value instanceof Map
      ? [...(value as Set<unknown> | Map<unknown, unknown>).values()]
      : undefined;

/**
 * A nested value as class-validator's nested validation decides it: nothing to check when undefined,
 * each item of an array, set or map in turn, an object by its own class's rules; anything else is
 * invalid. False too when an object's class is one this check does not decide (the caller then asks
 * class-validator).
 */
function nestedIsValid(value: unknown): boolean {
  if (value === undefined) return true;
  const items = itemsOf(value);
  if (items) return items.every(nestedIsValid);
  if (!(value instanceof Object)) return false;
  return checkOfNested(value.constructor)?.isValid(value) ?? false;
}

function stripNested(value: unknown): void {
  const items = itemsOf(value);
  if (items) for (const item of items) stripNested(item);
  else if (value instanceof Object) checkOfNested(value.constructor)?.strip(value);
}

/**
 * Decides, as `validateSync(instance, { forbidUnknownValues: false })` would, whether an instance
 * of a flat class has no problem, with the class's rules resolved once instead of at each call:
 * class-validator's executor filters the rules of every property and builds an error object for
 * each, problem or not, on every call: 5 % of the main thread's time on `/v1/track` at capacity,
 * where every tracked event builds one to three envelopes (7.5 µs an envelope, 3.4 µs with this).
 * The same constraint objects decide (class-validator's own `validate` of each rule), so the two
 * cannot disagree on a value; only the bookkeeping is skipped. It answers valid or not: for the
 * messages, the caller asks class-validator, which then runs only when something is wrong.
 *
 * `properties` lets a caller validating with `whitelist` strip the others as class-validator would.
 *
 * Nested rules (`ValidateNested`) are decided as class-validator does, each nested object by its own
 * class's compiled rules (a request carrying a list of items, e.g. contacts' `upsertMany`).
 *
 * Undefined when the class uses what this does not cover (promise rules, asynchronous constraints,
 * groups, `always`, a rule's own `validateIf`): such a class is left to class-validator.
 */
export function compileValidityCheck(cls: new (...args: never[]) => object): ValidityCheck | undefined {
  const storage = getMetadataStorage();
  // the executor's own lookup for validateSync without groups: no schema, always = false, strictGroups = false
  const metadatas = storage.getTargetValidationMetadatas(cls, undefined as unknown as string, false, false, undefined);
  const rules = new Map<string, Rule>();
  for (const m of metadatas) {
    if (m.groups?.length || m.always !== undefined || m.validateIf) return undefined;
    let rule = rules.get(m.propertyName);
    if (!rule)
      rules.set(m.propertyName, (rule = { property: m.propertyName, conditions: [], checks: [], nested: false }));
    switch (m.type) {
      case ValidationTypes.CONDITIONAL_VALIDATION:
        rule.conditions.push(m.constraints[0] as Rule['conditions'][number]);
        break;
      case ValidationTypes.CUSTOM_VALIDATION:
      case ValidationTypes.IS_DEFINED:
        for (const c of storage.getTargetValidatorConstraints(m.constraintCls)) {
          if (c.async) return undefined; // validateSync skips it, validate awaits it: neither is decided here
          const instance = c.instance as { validate: Rule['checks'][number]['validate'] };
          rule.checks.push({
            validate: instance.validate.bind(instance),
            constraints: m.constraints,
            each: m.each === true,
          });
        }
        break;
      case ValidationTypes.WHITELIST:
        break; // only read when validating with `whitelist`
      case ValidationTypes.NESTED_VALIDATION:
        rule.nested = true;
        break;
      default:
        return undefined; // nested, promise, or a type this version of the check does not know
    }
  }
  const compiled = [...rules.values()];
  const isValid = (instance: object): boolean => {
    for (const rule of compiled) {
      const value = (instance as Record<string, unknown>)[rule.property];
      if (!rule.conditions.every((applies) => applies(instance, value))) continue;
      for (const check of rule.checks) {
        const args: ValidationArguments = {
          targetName: cls.name,
          property: rule.property,
          object: instance,
          value,
          constraints: check.constraints,
        };
        if (check.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)) {
          for (const item of Array.isArray(value)
            ? value
            : [...(value as Set<unknown> | Map<unknown, unknown>).values()]) {
            if (!check.validate(item, args)) return false;
          }
        } else if (!check.validate(value, args)) return false;
      }
      if (rule.nested && !nestedIsValid(value)) return false;
    }
    return true;
  };
  const properties = new Set(rules.keys());
  const nested = compiled.filter((r) => r.nested).map((r) => r.property);
  const strip = (instance: object): void => {
    for (const key of Object.keys(instance))
      if (!properties.has(key)) delete (instance as Record<string, unknown>)[key];
    for (const property of nested) stripNested((instance as Record<string, unknown>)[property]);
  };
  return { isValid, properties, strip };
}
