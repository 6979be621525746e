import { parseProcStat, postmasterPidOf } from './stale-postmaster.js';

describe('reading a postmaster.pid and /proc/<pid>/stat', () => {
  it('takes the pid from the first line of postmaster.pid, and none from a damaged file', () => {
    expect(postmasterPidOf('4242\n/var/lib/herald/postgres\n1700000000\n5432\n')).toBe(4242);
    expect(postmasterPidOf('')).toBeUndefined();
    expect(postmasterPidOf('garbage\n')).toBeUndefined();
    expect(postmasterPidOf('0\n')).toBeUndefined();
    expect(postmasterPidOf('-7\n')).toBeUndefined();
  });

  it('reads the state and the parent pid after the command name, even when it holds spaces and parentheses', () => {
    expect(parseProcStat('812 (postgres) S 1 812 812 0 -1 4194560')).toEqual({ state: 'S', ppid: 1 });
    expect(parseProcStat('99 (we (ird) name) Z 4021 99 99 0')).toEqual({ state: 'Z', ppid: 4021 });
    expect(parseProcStat('')).toBeUndefined();
    expect(parseProcStat('12 (cut')).toBeUndefined();
  });
});
