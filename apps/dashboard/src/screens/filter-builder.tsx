import type { components } from '@herald/sdk';

/**
 * A builder over the filter language (docs/filters.md): a group (AND/OR) of conditions and nested
 * groups; each condition's field from the project's fields (`/contacts/fields`), its operators by
 * the field's type, its value input by the operator. Errors of the API (`filters.conditions[1].value`)
 * are shown under the part they point at.
 */
export type Group = components['schemas']['WireGroup'];
export type Condition = components['schemas']['WireCondition'];
export type Field = components['schemas']['FieldDescriptor'];
type FieldType = Field['type'];

const isGroup = (c: Group | Condition): c is Group => 'conditions' in c;

const OPERATORS: Record<FieldType, [string, string][]> = {
  string: [
    ['equals', 'is'],
    ['notEquals', 'is not'],
    ['contains', 'contains'],
    ['notContains', 'does not contain'],
    ['startsWith', 'starts with'],
    ['exists', 'is set'],
    ['notExists', 'is not set'],
  ],
  number: [
    ['equals', '='],
    ['notEquals', '≠'],
    ['greaterThan', '>'],
    ['greaterThanOrEqual', '≥'],
    ['lessThan', '<'],
    ['lessThanOrEqual', '≤'],
    ['exists', 'is set'],
    ['notExists', 'is not set'],
  ],
  boolean: [
    ['equals', 'is'],
    ['notEquals', 'is not'],
    ['exists', 'is set'],
    ['notExists', 'is not set'],
  ],
  date: [
    ['within', 'within the last'],
    ['olderThan', 'more than … ago'],
    ['greaterThan', 'after'],
    ['lessThan', 'before'],
    ['exists', 'is set'],
    ['notExists', 'is not set'],
  ],
};
const NO_VALUE = new Set(['exists', 'notExists']);
const RELATIVE = new Set(['within', 'olderThan']);
const UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;

export const operatorsOf = (type: FieldType) => OPERATORS[type];

/** A new condition on `field` with its type's first operator and a value of its type. */
export function newCondition(field: Field): Condition {
  const operator = OPERATORS[field.type][0]![0];
  return fitValue({ field: field.field, operator }, field.type);
}

/** The condition with a value that fits its operator and field type (none, a number, a boolean, a string). */
function fitValue(c: Condition, type: FieldType): Condition {
  const { value, unit, ...rest } = c;
  if (NO_VALUE.has(c.operator)) return rest;
  if (RELATIVE.has(c.operator)) return { ...rest, value: typeof value === 'number' ? value : 30, unit: unit ?? 'days' };
  if (type === 'number') return { ...rest, value: typeof value === 'number' ? value : 0 };
  if (type === 'boolean') return { ...rest, value: typeof value === 'boolean' ? value : true };
  return { ...rest, value: typeof value === 'string' ? value : '' };
}

interface BuilderProps {
  group: Group;
  fields: Field[];
  errors: Record<string, string>;
  path: string;
  onChange: (g: Group) => void;
  onRemove?: () => void;
}

export function GroupEditor({ group, fields, errors, path, onChange, onRemove }: BuilderProps) {
  const set = (i: number, c: Group | Condition) =>
    onChange({ ...group, conditions: group.conditions.map((x, j) => (j === i ? c : x)) });
  const remove = (i: number) => onChange({ ...group, conditions: group.conditions.filter((_, j) => j !== i) });
  const depth = path.split('.conditions').length - 1;
  const label = depth === 0 ? 'Contacts matching' : `Group ${path}`;
  const error = errors[path];
  return (
    <fieldset class="group" data-path={path}>
      <legend class="sr-only">{label}</legend>
      <div class="group-head">
        <label for={`${path}-op`}>{depth === 0 ? 'Contacts matching' : 'Group matching'}</label>
        <select
          id={`${path}-op`}
          value={group.operator}
          onChange={(e) => onChange({ ...group, operator: (e.target as HTMLSelectElement).value as 'AND' | 'OR' })}
        >
          <option value="AND">all of (AND)</option>
          <option value="OR">any of (OR)</option>
        </select>
        {onRemove && (
          <button type="button" onClick={onRemove}>
            Remove group
          </button>
        )}
      </div>
      {error && <p class="field-error">{error}</p>}
      {group.conditions.length === 0 && (
        <p class="empty">{group.operator === 'AND' ? 'No condition: every contact.' : 'No condition: nobody.'}</p>
      )}
      {group.conditions.map((c, i) =>
        isGroup(c) ? (
          <GroupEditor
            key={i}
            group={c}
            fields={fields}
            errors={errors}
            path={`${path}.conditions[${i}]`}
            onChange={(g) => set(i, g)}
            onRemove={() => remove(i)}
          />
        ) : (
          <ConditionEditor
            key={i}
            condition={c}
            fields={fields}
            errors={errors}
            path={`${path}.conditions[${i}]`}
            onChange={(x) => set(i, x)}
            onRemove={() => remove(i)}
          />
        ),
      )}
      <div class="group-actions">
        <button
          type="button"
          disabled={fields.length === 0}
          onClick={() => onChange({ ...group, conditions: [...group.conditions, newCondition(fields[0]!)] })}
        >
          Add condition
        </button>
        {depth < 2 && (
          <button
            type="button"
            disabled={fields.length === 0}
            onClick={() =>
              onChange({
                ...group,
                conditions: [
                  ...group.conditions,
                  { operator: group.operator === 'AND' ? 'OR' : 'AND', conditions: [] },
                ],
              })
            }
          >
            Add group
          </button>
        )}
      </div>
    </fieldset>
  );
}

function ConditionEditor(props: {
  condition: Condition;
  fields: Field[];
  errors: Record<string, string>;
  path: string;
  onChange: (c: Condition) => void;
  onRemove: () => void;
}) {
  const { condition: c, fields, path, onChange } = props;
  const field = fields.find((f) => f.field === c.field);
  const type: FieldType = field?.type ?? 'string';
  const errorOf = (part: string) => props.errors[`${path}.${part}`];
  const own = props.errors[path];
  const id = (part: string) => `${path}-${part}`;
  const described = (part: string) =>
    errorOf(part) ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${id(part)}-error` } : {};
  return (
    <div class="condition" data-path={path}>
      <label for={id('field')} class="sr-only">
        Field
      </label>
      <select
        id={id('field')}
        value={c.field}
        {...described('field')}
        onChange={(e) => {
          const next = fields.find((f) => f.field === (e.target as HTMLSelectElement).value)!;
          onChange(newCondition(next));
        }}
      >
        {fields.map((f) => (
          <option key={f.field} value={f.field}>
            {f.field}
          </option>
        ))}
      </select>
      <label for={id('operator')} class="sr-only">
        Operator
      </label>
      <select
        id={id('operator')}
        value={c.operator}
        {...described('operator')}
        onChange={(e) => onChange(fitValue({ ...c, operator: (e.target as HTMLSelectElement).value }, type))}
      >
        {operatorsOf(type).map(([op, text]) => (
          <option key={op} value={op}>
            {text}
          </option>
        ))}
      </select>
      {!NO_VALUE.has(c.operator) && (
        <>
          <label for={id('value')} class="sr-only">
            Value
          </label>
          {type === 'boolean' && !RELATIVE.has(c.operator) ? (
            <select
              id={id('value')}
              value={String(c.value)}
              {...described('value')}
              onChange={(e) => onChange({ ...c, value: (e.target as HTMLSelectElement).value === 'true' })}
            >
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          ) : (
            <input
              id={id('value')}
              // preact 11 types each input type's attributes apart; these two take the same ones here
              type={(type === 'number' || RELATIVE.has(c.operator) ? 'number' : 'text') as 'text'}
              value={String(c.value ?? '')}
              {...described('value')}
              onInput={(e) => {
                const raw = (e.target as HTMLInputElement).value;
                const numeric = type === 'number' || RELATIVE.has(c.operator);
                onChange({ ...c, value: numeric ? (raw === '' ? 0 : Number(raw)) : raw });
              }}
            />
          )}
          {RELATIVE.has(c.operator) && (
            <>
              <label for={id('unit')} class="sr-only">
                Unit
              </label>
              <select
                id={id('unit')}
                value={c.unit ?? 'days'}
                onChange={(e) => onChange({ ...c, unit: (e.target as HTMLSelectElement).value as Condition['unit'] })}
              >
                {UNITS.map((u) => (
                  <option key={u} value={u}>
                    {u}
                  </option>
                ))}
              </select>
            </>
          )}
        </>
      )}
      <button type="button" onClick={props.onRemove} aria-label={`Remove the condition on ${c.field}`}>
        Remove
      </button>
      {(['field', 'operator', 'value'] as const).map(
        (part) =>
          errorOf(part) && (
            <p key={part} class="field-error" id={`${id(part)}-error`}>
              {errorOf(part)}
            </p>
          ),
      )}
      {own && <p class="field-error">{own}</p>}
    </div>
  );
}
