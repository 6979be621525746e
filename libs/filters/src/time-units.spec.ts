import { unitsBefore } from './time-units.js';

const before = (now: string, amount: number, unit: Parameters<typeof unitsBefore>[2]) =>
  new Date(unitsBefore(new Date(now), amount, unit)).toISOString();

describe('time units: fixed lengths, and months as calendar months in UTC', () => {
  it.each<[string, number, Parameters<typeof unitsBefore>[2], string]>([
    ['2024-06-15T12:00:00.000Z', 90, 'minutes', '2024-06-15T10:30:00.000Z'],
    ['2024-06-15T12:00:00.000Z', 36, 'hours', '2024-06-14T00:00:00.000Z'],
    ['2024-03-31T12:00:00.000Z', 1, 'days', '2024-03-30T12:00:00.000Z'],
    ['2024-06-15T12:00:00.000Z', 2, 'weeks', '2024-06-01T12:00:00.000Z'],
    ['2024-06-15T12:34:56.789Z', 1, 'months', '2024-05-15T12:34:56.789Z'],
    ['2024-03-31T12:00:00.000Z', 1, 'months', '2024-02-29T12:00:00.000Z'],
    ['2023-03-31T12:00:00.000Z', 1, 'months', '2023-02-28T12:00:00.000Z'],
    ['2024-01-31T00:00:00.000Z', 2, 'months', '2023-11-30T00:00:00.000Z'],
    ['2024-02-29T00:00:00.000Z', 12, 'months', '2023-02-28T00:00:00.000Z'],
    ['2024-05-01T00:00:00.000Z', 25, 'months', '2022-04-01T00:00:00.000Z'],
    ['0001-02-01T00:00:00.000Z', 1, 'months', '0001-01-01T00:00:00.000Z'],
  ])('%s minus %i %s is %s', (now, amount, unit, expected) => {
    expect(before(now, amount, unit)).toBe(expected);
  });
});
