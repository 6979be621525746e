import { canTraverse } from './data-dir.js';

describe('whether the server user can reach the data directory', () => {
  const postgres = { uid: 105, gid: 110 };

  it('uses the owner bit for its own directories, the group bit for its group, else the others bit', () => {
    expect(canTraverse({ uid: 105, gid: 0, mode: 0o700 }, postgres)).toBe(true);
    expect(canTraverse({ uid: 105, gid: 110, mode: 0o070 }, postgres)).toBe(false); // owner bit decides
    expect(canTraverse({ uid: 0, gid: 110, mode: 0o710 }, postgres)).toBe(true);
    expect(canTraverse({ uid: 0, gid: 110, mode: 0o701 }, postgres)).toBe(false); // group bit decides
    expect(canTraverse({ uid: 0, gid: 0, mode: 0o701 }, postgres)).toBe(true);
    expect(canTraverse({ uid: 0, gid: 0, mode: 0o770 }, postgres)).toBe(false);
  });

  it('ignores the file-type bits of a stat mode', () => {
    expect(canTraverse({ uid: 0, gid: 0, mode: 0o040755 }, postgres)).toBe(true);
    expect(canTraverse({ uid: 0, gid: 0, mode: 0o040750 }, postgres)).toBe(false);
  });
});
