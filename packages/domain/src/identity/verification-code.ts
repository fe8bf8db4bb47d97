/**
 * Verification codes (issue 4), pure rules: 6 digits, single use, valid 5 minutes, a few guesses,
 * and limits on how often codes may be sent — per target (a phone or e-mail address) and per
 * client address — so the code form can be used neither to flood someone's inbox nor to guess.
 */
export const CODE_DIGITS = 6;
export const CODE_TTL_MS = 5 * 60_000;
/** Wrong guesses after which a code is dead (a new one must be asked for). */
export const CODE_MAX_ATTEMPTS = 5;
/** One code per target per minute… */
export const CODE_RESEND_COOLDOWN_MS = 60_000;
/** …and at most this many per target per hour… */
export const CODE_MAX_PER_TARGET_PER_HOUR = 5;
/** …and per client address per hour (one person asking for many targets). */
export const CODE_MAX_PER_ADDRESS_PER_HOUR = 20;
const HOUR_MS = 3_600_000;

export type CodeChannel = 'email' | 'sms';
export const codePurposes = ['register', 'reset_password', 'bind_email', 'bind_phone'] as const;
export type CodePurpose = (typeof codePurposes)[number];

export type SendDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * May another code be sent now? `targetSentAtMs` / `addressSentAtMs`: when codes were sent to
 * this target / from this client address in the last hour (any order).
 */
export function decideCodeSend(input: { nowMs: number; targetSentAtMs: readonly number[]; addressSentAtMs: readonly number[] }): SendDecision {
  const { nowMs } = input;
  const lastHour = (times: readonly number[]) => times.filter((at) => at > nowMs - HOUR_MS).sort((a, b) => a - b);
  const target = lastHour(input.targetSentAtMs);
  const address = lastHour(input.addressSentAtMs);
  const waits: number[] = [];
  const newest = target.at(-1);
  if (newest !== undefined && nowMs - newest < CODE_RESEND_COOLDOWN_MS) waits.push(newest + CODE_RESEND_COOLDOWN_MS - nowMs);
  // When the hourly budget is spent, the oldest send in the window frees the next slot.
  if (target.length >= CODE_MAX_PER_TARGET_PER_HOUR) waits.push(target[target.length - CODE_MAX_PER_TARGET_PER_HOUR]! + HOUR_MS - nowMs);
  if (address.length >= CODE_MAX_PER_ADDRESS_PER_HOUR) waits.push(address[address.length - CODE_MAX_PER_ADDRESS_PER_HOUR]! + HOUR_MS - nowMs);
  if (waits.length === 0) return { allowed: true };
  return { allowed: false, retryAfterMs: Math.max(...waits) };
}

/** A code is usable when not consumed, not expired and not guessed at too often. */
export function isCodeUsable(code: { expiresAtMs: number; consumed: boolean; attempts: number }, nowMs: number): boolean {
  return !code.consumed && nowMs < code.expiresAtMs && code.attempts < CODE_MAX_ATTEMPTS;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@.]{2,63}$/;

/** Lower-cased, trimmed e-mail address, or undefined when it is not one ("incorrect email format"). */
export function normalizeEmail(text: string): string | undefined {
  const email = text.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : undefined;
}

/**
 * A phone number in international form, `+` and 8–15 digits (E.164), spaces, dots, dashes and
 * brackets removed; undefined when it is not one ("wrong phone number").
 */
export function normalizePhone(text: string): string | undefined {
  const compact = text.trim().replace(/[\s.()-]/g, '');
  const withPlus = compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
  return /^\+[1-9]\d{7,14}$/.test(withPlus) ? withPlus : undefined;
}
