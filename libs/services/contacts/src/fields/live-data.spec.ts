import { deletionCovering } from './live-data.js';

describe('deletionCovering', () => {
  const tombstones = [
    { path: 'data.plan', seq: '3' },
    { path: 'data.plan', seq: '12' },
    { path: 'data.profile', seq: '7' },
  ];

  it('is the newest deletion of the field itself', () => {
    expect(deletionCovering('data.plan', tombstones)).toBe('12');
  });

  it('covers a nested field through the deletion of its parent', () => {
    expect(deletionCovering('data.profile.tier', tombstones)).toBe('7');
  });

  it('does not cover a field that only shares a prefix of its name', () => {
    expect(deletionCovering('data.planned', tombstones)).toBeUndefined();
    expect(deletionCovering('data.city', [])).toBeUndefined();
  });
});
