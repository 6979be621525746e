import { isGeneratedId, newId } from './ids.js';

describe('isGeneratedId: the shape newId gives, and nothing else', () => {
  it('accepts every id newId makes with the same prefix', () => {
    for (let i = 0; i < 100; i++) expect(isGeneratedId('cnt', newId('cnt'))).toBe(true);
  });

  it.each([
    ['another prefix', newId('eml')],
    ['no prefix', newId('cnt').slice(4)],
    ['one character short', newId('cnt').slice(0, -1)],
    ['one character long', `${newId('cnt')}0`],
    ['upper case', newId('cnt').toUpperCase()],
    ['a letter outside the alphabet (i, l, o, u)', `cnt_${'u'.repeat(26)}`],
    ['SQL or path characters', `cnt_${'0'.repeat(24)}/'`],
  ])('refuses %s', (_case, value) => {
    expect(isGeneratedId('cnt', value)).toBe(false);
  });
});
