import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

// Randomness is drawn from the CSPRNG 4 KiB at a time (as Node does for randomUUID), not per id.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function randomSlice(n: number): Buffer {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += n;
  return pool.subarray(poolOffset - n, poolOffset);
}

/**
 * A prefixed, time-sortable opaque id (`cnt_01jd…`): 10 characters of millisecond time and 16 of
 * randomness (80 bits), so ids sort by creation and keyset pagination can use them.
 */
export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomSlice(10);
  let rand = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      rand += ALPHABET[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `${prefix}_${time}${rand}`;
}

/**
 * Whether `value` has the shape `newId(prefix)` gives: the prefix, `_`, and 26 characters of its
 * alphabet. For ids one service proposes to another (sending proposes the id of a contact that
 * contacts creates), so a malformed one is refused where it arrives.
 */
export function isGeneratedId(prefix: string, value: string): boolean {
  if (!value.startsWith(`${prefix}_`) || value.length !== prefix.length + 27) return false;
  for (let i = prefix.length + 1; i < value.length; i++) if (!ALPHABET.includes(value[i]!)) return false;
  return true;
}

/** Stable signed 32-bit key (FNV-1a) for a PostgreSQL advisory lock named `name`. */
export function advisoryLockKey(name: string): number {
  let h = 0x811c9dc5;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h | 0;
}
