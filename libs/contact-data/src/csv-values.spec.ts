import { applyDataPatch, RESERVED_DATA_KEYS } from './data-patch.js';
import { DROPPED_CSV_COLUMNS, mapCsvRow, typeCsvCell } from './csv-values.js';
import { inferFieldType } from './field-types.js';

describe('CSV import rule 5: typing of cells', () => {
  const rows: Array<[string, string, string | number | boolean]> = [
    // ISO 8601 dates become dates: kept as the string, typed date by inference
    ['an ISO date stays a (date) string', '2024-03-12', '2024-03-12'],
    ['an ISO timestamp stays a (date) string', '2024-03-12T10:20:30Z', '2024-03-12T10:20:30Z'],
    [
      'an ISO timestamp with milliseconds stays a (date) string',
      '2024-03-12T10:20:30.123Z',
      '2024-03-12T10:20:30.123Z',
    ],
    // true, false, yes, no (case-insensitive) become booleans
    ['true is a boolean', 'true', true],
    ['TRUE is a boolean', 'TRUE', true],
    ['True is a boolean', 'True', true],
    ['false is a boolean', 'false', false],
    ['FALSE is a boolean', 'FALSE', false],
    ['yes is true', 'yes', true],
    ['YES is true', 'YES', true],
    ['Yes is true', 'Yes', true],
    ['no is false', 'no', false],
    ['NO is false', 'NO', false],
    ['No is false', 'No', false],
    ['a padded boolean is a boolean', '  yes ', true],
    ['y is not a boolean', 'y', 'y'],
    ['1 is a number, not a boolean', '1', 1],
    // plain integers and decimals become numbers
    ['an integer is a number', '42', 42],
    ['zero is a number', '0', 0],
    ['the largest safe integer is a number', '9007199254740991', 9007199254740991],
    ['a decimal is a number', '3.14', 3.14],
    ['a decimal below one is a number', '0.5', 0.5],
    ['a decimal with a trailing zero is a number', '10.50', 10.5],
    ['a padded number is a number', ' 42 ', 42],
    // negative numbers
    ['a negative integer is a number', '-42', -42],
    ['a negative decimal is a number', '-3.5', -3.5],
    ['a negative decimal below one is a number', '-0.5', -0.5],
    ['minus zero is zero', '-0', 0],
    // a leading zero stays a string
    ['a leading zero stays a string', '0123', '0123'],
    ['a ZIP code stays a string', '02134', '02134'],
    ['007 stays a string', '007', '007'],
    ['00.5 stays a string', '00.5', '00.5'],
    ['a negative leading zero stays a string', '-012', '-012'],
    // a leading plus sign stays a string
    ['a phone number with a plus stays a string', '+4915112345678', '+4915112345678'],
    ['+1 stays a string', '+1', '+1'],
    // scientific notation stays a string
    ['1e10 stays a string', '1e10', '1e10'],
    ['1E5 stays a string', '1E5', '1E5'],
    ['2.5e-3 stays a string', '2.5e-3', '2.5e-3'],
    // integers beyond the safe range stay strings
    ['one past the largest safe integer stays a string', '9007199254740992', '9007199254740992'],
    ['a long phone-like number stays a string', '4915112345678901234', '4915112345678901234'],
    ['a large negative integer stays a string', '-9007199254740992', '-9007199254740992'],
    ['a decimal with a huge integer part stays a string', '12345678901234567890.5', '12345678901234567890.5'],
    // empty cell
    ['an empty cell is the empty string', '', ''],
    ['a blank cell is the empty string', '   ', ''],
    // everything else is the trimmed string
    ['a word is a string', 'gold', 'gold'],
    ['surrounding whitespace is trimmed', '  Berlin ', 'Berlin'],
    ['a slash date is a string', '12/03/2024', '12/03/2024'],
    ['a thousands separator is a string', '1,000', '1,000'],
    ['a leading dot is a string', '.5', '.5'],
    ['a trailing dot is a string', '5.', '5.'],
    ['hexadecimal is a string', '0x1F', '0x1F'],
    ['Infinity is a string', 'Infinity', 'Infinity'],
    ['NaN is a string', 'NaN', 'NaN'],
  ];

  it.each(rows)('%s (%p)', (_rule, raw, expected) => {
    expect(typeCsvCell(raw)).toBe(expected);
  });

  it.each([
    ['2024-03-12', 'date'],
    ['2024-03-12T10:20:30Z', 'date'],
    ['12/03/2024', 'string'],
    ['02134', 'string'],
    ['42', 'number'],
    ['no', 'boolean'],
  ])('the typed cell %p is inferred as %s', (raw, type) => {
    expect(inferFieldType(typeCsvCell(raw))).toBe(type);
  });
});

describe('CSV import rule 1: email is the email; every other column becomes data.<column>', () => {
  it('maps one row with typed values', () => {
    expect(
      mapCsvRow(
        ['email', 'plan', 'visits', 'vip', 'zip', 'since'],
        ['ada@example.com', 'gold', '3', 'yes', '02134', '2024-03-12'],
      ),
    ).toEqual({
      email: 'ada@example.com',
      data: { plan: 'gold', visits: 3, vip: true, zip: '02134', since: '2024-03-12' },
    });
  });

  it.each(['email', 'Email', 'EMAIL', ' email '])(
    'finds the email column by header %p (case-insensitive, trimmed)',
    (header) => {
      expect(mapCsvRow([header, 'plan'], [' Ada@Example.com ', 'gold'])).toEqual({
        email: 'Ada@Example.com',
        data: { plan: 'gold' },
      });
    },
  );

  it.each<[string, string[], string[]]>([
    ['there is no email column', ['plan'], ['gold']],
    ['the email cell is empty', ['email', 'plan'], ['', 'gold']],
    ['the email cell is blank', ['email', 'plan'], ['  ', 'gold']],
    ['the row is too short', ['plan', 'email'], ['gold']],
  ])('gives no email when %s (reported as invalid_email by the caller)', (_label, headers, cells) => {
    expect(mapCsvRow(headers, cells).email).toBeUndefined();
  });

  it('uses the first email column', () => {
    expect(mapCsvRow(['email', 'EMAIL'], ['a@example.com', 'b@example.com'])).toEqual({
      email: 'a@example.com',
      data: {},
    });
  });

  it('turns empty and missing cells into empty strings, which the data patch ignores', () => {
    const row = mapCsvRow(['email', 'plan', 'city', 'tier'], ['a@example.com', '', 'Berlin']);
    expect(row.data).toEqual({ plan: '', city: 'Berlin', tier: '' });
    expect(applyDataPatch({ plan: 'gold', tier: 'vip' }, row.data).data).toEqual({
      plan: 'gold',
      city: 'Berlin',
      tier: 'vip',
    });
  });

  it('keeps header case and trims headers; dotted headers stay flat keys', () => {
    expect(mapCsvRow(['email', ' First Name ', 'profile.tier'], ['a@example.com', 'Ada', 'gold']).data).toEqual({
      'First Name': 'Ada',
      'profile.tier': 'gold',
    });
  });

  it('drops columns with an empty header and cells beyond the headers', () => {
    expect(mapCsvRow(['email', '', 'plan'], ['a@example.com', 'x', 'gold', 'extra']).data).toEqual({ plan: 'gold' });
  });

  it('lets the later non-empty cell win for duplicate headers', () => {
    expect(mapCsvRow(['email', 'plan', 'plan'], ['a@example.com', 'gold', 'silver']).data).toEqual({ plan: 'silver' });
    expect(mapCsvRow(['email', 'plan', 'plan'], ['a@example.com', 'gold', '']).data).toEqual({ plan: 'gold' });
  });
});

describe('CSV import rule 4: id, subscribed, createdAt, updatedAt and the URL variables are silently dropped', () => {
  it('lists exactly the dropped columns of the spec', () => {
    expect([...DROPPED_CSV_COLUMNS].sort()).toEqual(
      ['createdAt', 'id', 'manageUrl', 'subscribeUrl', 'subscribed', 'unsubscribeUrl', 'updatedAt'].sort(),
    );
  });

  const variants = DROPPED_CSV_COLUMNS.flatMap((c) => [c, c.toLowerCase(), c.toUpperCase(), ` ${c} `]);
  it.each(variants)('drops the column %p', (header) => {
    expect(mapCsvRow(['email', header, 'plan'], ['a@example.com', 'x', 'gold'])).toEqual({
      email: 'a@example.com',
      data: { plan: 'gold' },
    });
  });

  it.each(RESERVED_DATA_KEYS.filter((k) => k !== 'email').flatMap((k) => [k, k.toUpperCase()]))(
    'drops the reserved data key column %p too',
    (header) => {
      expect(mapCsvRow(['email', header], ['a@example.com', 'x']).data).toEqual({});
    },
  );

  it('does not drop columns that merely contain a dropped name', () => {
    expect(mapCsvRow(['email', 'userId', 'isSubscribed'], ['a@example.com', '7', 'no']).data).toEqual({
      userId: 7,
      isSubscribed: false,
    });
  });
});

describe('CSV import rule 6: a row patches the existing contact data', () => {
  it('updates only the columns present and is idempotent on rerun', () => {
    const row = mapCsvRow(['email', 'plan', 'visits'], ['a@example.com', 'gold', '3']);
    const first = applyDataPatch({ city: 'Berlin', plan: 'free' }, row.data);
    expect(first.data).toEqual({ city: 'Berlin', plan: 'gold', visits: 3 });
    expect(first.changedKeys).toEqual(['plan', 'visits']);
    const rerun = applyDataPatch(first.data, row.data);
    expect(rerun.data).toEqual(first.data);
    expect(rerun.changedKeys).toEqual([]);
  });
});
