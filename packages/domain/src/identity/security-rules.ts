/** A published rule: after the login password changes, withdrawals wait this long. */
export const WITHDRAWAL_LOCK_AFTER_PASSWORD_CHANGE_MS = 24 * 3_600_000;

/** Until when withdrawals are locked by a password change at `changedAtMs`, or null when they are not. */
export function withdrawalsLockedUntilMs(changedAtMs: number | null, nowMs: number): number | null {
  if (changedAtMs === null) return null;
  const untilMs = changedAtMs + WITHDRAWAL_LOCK_AFTER_PASSWORD_CHANGE_MS;
  return nowMs < untilMs ? untilMs : null;
}
