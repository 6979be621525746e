import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, t=3, p=4). */
export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id });

export const verifyPassword = (hash: string, password: string): Promise<boolean> =>
  argon2.verify(hash, password).catch(() => false);

/** A real hash to verify against when the account does not exist, so both cases take as long. */
let dummy: Promise<string> | undefined;
export const dummyHash = (): Promise<string> => (dummy ??= hashPassword('herald-timing-equaliser'));
