import { invalidInput, type FieldProblem } from '@herald/core';
import { FILTER_LIMITS } from './model.js';

/** Problem codes (`errors[].code`); the error's own code is the spec's VALIDATION_ERROR. */
export const FilterProblemCodes = {
  invalid: 'FILTER_INVALID',
  tooDeep: 'FILTER_TOO_DEEP',
  tooLarge: 'FILTER_TOO_LARGE',
  unknownProperty: 'FILTER_PROPERTY_UNKNOWN',
  unknownField: 'FILTER_FIELD_UNKNOWN',
  unknownOperator: 'FILTER_OPERATOR_UNKNOWN',
  operatorNotAllowed: 'FILTER_OPERATOR_NOT_ALLOWED',
  invalidValue: 'FILTER_VALUE_INVALID',
  invalidUnit: 'FILTER_UNIT_INVALID',
  valueType: 'FILTER_VALUE_TYPE',
  unknownSegment: 'FILTER_SEGMENT_UNKNOWN',
  segmentCycle: 'FILTER_SEGMENT_CYCLE',
} as const;

/** Collects problems up to a cap, so a hostile filter cannot make a huge error body. */
export class Problems {
  readonly list: FieldProblem[] = [];
  private dropped = 0;
  constructor(private readonly max: number = FILTER_LIMITS.maxProblems) {}
  add(field: string, code: string, message: string): void {
    if (this.list.length < this.max) this.list.push({ field, code, message });
    else this.dropped++;
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
  throwIfAny(message: string): void {
    if (this.empty) return;
    const errors = [...this.list];
    if (this.dropped > 0)
      errors.push({
        field: errors[0]!.field,
        code: FilterProblemCodes.invalid,
        message: `${this.dropped} more problems not listed`,
      });
    throw invalidInput(errors, message);
  }
}
