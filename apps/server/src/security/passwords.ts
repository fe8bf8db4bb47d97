import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's Algorithm.Argon2id; the enum is a const enum we cannot import) with
// the library's default cost (about 40 ms a hash on the CI machine).
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against this when an account does not exist keeps a failed login's timing the same
// whether or not the account exists.
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('keel-dummy-password');
  await verifyPassword(await dummyHash, password);
  return false;
}
