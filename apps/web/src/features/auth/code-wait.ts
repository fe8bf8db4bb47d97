import { CODE_TTL_MS, type CodeChannel } from '@keel/domain';

/** Where a code is sent: an e-mail address or a phone (SMS). */
export type { CodeChannel };
/** How a user registers: by phone, by e-mail or by username (spec section 2). */
export type RegisterChannel = CodeChannel | 'username';

/**
 * How long to wait before another code may be sent, from the server's answer. The answer's times
 * are on the server's clock; their difference is not, so a device whose clock is off still counts
 * down the right number of seconds (expiresAtMs = sent + 5 min, resendAfterMs = sent + cooldown).
 */
export function resendWaitMs(answer: { expiresAtMs: number; resendAfterMs: number }): number {
  return Math.max(0, Math.min(CODE_TTL_MS, CODE_TTL_MS - (answer.expiresAtMs - answer.resendAfterMs)));
}

/** `data.retryAfterSeconds` of a 429 answer ("too many requests"), if there is one. */
export function retryAfterSeconds(data: unknown): number | undefined {
  const value = (data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
}
