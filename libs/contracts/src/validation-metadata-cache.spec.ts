import { getMetadataStorage, IsInt, IsString, validateSync } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache.js';

class Base {
  @IsString()
  name!: unknown;
}

class Derived extends Base {
  @IsInt()
  count!: unknown;
}

const problems = (o: object) =>
  validateSync(o, { forbidUnknownValues: false })
    .map((e) => e.property)
    .sort();
const derived = (name: unknown, count: unknown) => Object.assign(new Derived(), { name, count });

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it('validates with the class’s own and inherited rules, as without the cache', () => {
    expect(problems(derived('a', 1))).toEqual([]);
    expect(problems(derived(1, 'x'))).toEqual(['count', 'name']);
    expect(problems(derived(1, 'x'))).toEqual(['count', 'name']);
  });

  it('answers a repeated lookup from the memo', () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Derived, '', false, false);
    expect(storage.getTargetValidationMetadatas(Derived, '', false, false)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(storage.getTargetValidationMetadatas(Derived, '', false, false, ['other'])).not.toBe(first);
  });

  it('sees a rule declared after a class was first validated', () => {
    class Late {
      a!: unknown;
      b!: unknown;
    }
    IsString()(Late.prototype, 'a');
    expect(problems(Object.assign(new Late(), { a: 'x', b: 1 }))).toEqual([]);
    IsString()(Late.prototype, 'b');
    expect(problems(Object.assign(new Late(), { a: 'x', b: 1 }))).toEqual(['b']);
  });

  it('is installed once however often it is called', () => {
    const storage = getMetadataStorage();
    const lookup = storage.getTargetValidationMetadatas;
    cacheValidationMetadata();
    expect(storage.getTargetValidationMetadatas).toBe(lookup);
  });
});
