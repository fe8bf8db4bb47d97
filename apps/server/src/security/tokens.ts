import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A new opaque session token: 32 random bytes, base64url. Only its hash is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// No 0/O/1/I so a code read aloud or typed from a screenshot is unambiguous.
const INVITE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

export function newInviteCode(length = 8): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

/** A random password for a seeded account, printed once. */
export function newInitialPassword(): string {
  return randomBytes(12).toString('base64url');
}
