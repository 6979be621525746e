import { totalmem } from 'node:os';

const MB = 1024 * 1024;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The embedded server's memory settings for a machine with `totalBytes` of RAM. It shares the
 * machine with Herald, so it takes an eighth for `shared_buffers` (PostgreSQL's own advice for a
 * dedicated server is a quarter), between 128 MB (PostgreSQL's default) and 1 GB; the planner is
 * told a quarter of the machine is cache. Why it matters: a sequential scan of a table bigger than
 * a quarter of `shared_buffers` goes through a 256 kB ring and copies every page from the OS cache
 * again on each scan; with 1 GB, the contact tables of a million-contact project stay in shared
 * memory (docs/operations.md, Memory).
 */
export function embeddedMemorySettings(totalBytes: number): { shared_buffers: string; effective_cache_size: string } {
  const mb = (bytes: number) => `${Math.floor(bytes / MB)}MB`;
  return {
    shared_buffers: mb(clamp(totalBytes / 8, 128 * MB, 1024 * MB)),
    effective_cache_size: mb(clamp(totalBytes / 4, 512 * MB, 4096 * MB)),
  };
}

/** The memory this process may use: its cgroup's limit when it has one (a container), else the machine's. */
export function availableMemory(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 && limit < totalmem() ? limit : totalmem();
}
