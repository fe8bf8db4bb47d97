import { createHash } from 'node:crypto';
import { AppError } from '@keel/contracts';
import { decidePaymentPasswordAttempt, PAYMENT_PASSWORD_LOCK_MS, PAYMENT_PASSWORD_MAX_FAILURES, paymentPasswordStanding } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../persistence/db.ts';
import { clearCounter, type CounterKey, readCounter, updateCounters } from '../../persistence/login-failures.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { verifyPassword } from '../../security/passwords.ts';

/**
 * The payment password's counter: one per user. Only the user's own session reaches the payment
 * password, so a per-user lock cannot be used by a stranger to lock someone out (ADR 0018).
 */
function paymentPasswordKey(user: Pick<UserRow, 'id'>): CounterKey {
  return { identifier: `payment-password:${user.id}`, source: '' };
}

/**
 * The payment password of a money-moving step (a withdrawal, an escrow release) or of changing it:
 * "no payment password set, confirm to set" when there is none. Each attempt is counted BEFORE the
 * password is checked, under the counter's row lock, so concurrent guesses get no more checks than
 * the rule allows: 5 wrong ones within 24 h lock it for 24 h (PAYMENT_PASSWORD_LOCKED says until
 * when); a right one resets the count.
 */
export async function checkPaymentPassword(deps: Deps, user: UserRow, paymentPassword: string): Promise<void> {
  const passwordHash = user.payment_password_hash;
  if (passwordHash === null) throw new AppError('PAYMENT_PASSWORD_NOT_SET');
  // Concurrent checks of the same guess against the same stored password share one counted check:
  // the same guess twice tells nothing more, and a burst of payments with the right password (a
  // double click, retries, a script) is then one attempt rather than five that fill the budget and
  // lock it. Kept only while the check runs; a hash of the guess, never the guess itself.
  const inFlight = checksInFlightOf(deps.db);
  const guessKey = `${user.id}:${createHash('sha256').update(`${passwordHash}\0${paymentPassword}`).digest('hex')}`;
  const shared = inFlight.get(guessKey);
  if (shared) return shared;
  const check = countedCheck(deps, user, passwordHash, paymentPassword).finally(() => inFlight.delete(guessKey));
  inFlight.set(guessKey, check);
  return check;
}

/** Checks in flight in this process, per database (two apps in one test process do not share). */
const checksInFlight = new WeakMap<Db, Map<string, Promise<void>>>();
function checksInFlightOf(db: Db): Map<string, Promise<void>> {
  const known = checksInFlight.get(db);
  if (known) return known;
  const map = new Map<string, Promise<void>>();
  checksInFlight.set(db, map);
  return map;
}

async function countedCheck(deps: Deps, user: UserRow, passwordHash: string, paymentPassword: string): Promise<void> {
  const key = paymentPasswordKey(user);
  const now = deps.now();
  const decision = await updateCounters(deps.db, [key], now, ([count]) => {
    const decided = decidePaymentPasswordAttempt(count, now.getTime());
    return { decision: decided, next: decided.allowed ? [decided.next] : undefined };
  });
  if (!decision.allowed) {
    throw new AppError('PAYMENT_PASSWORD_LOCKED', {
      until: new Date(decision.lockedUntilMs).toISOString(),
      maxFailures: PAYMENT_PASSWORD_MAX_FAILURES,
      lockMinutes: PAYMENT_PASSWORD_LOCK_MS / 60_000,
      retryAfterSeconds: Math.ceil((decision.lockedUntilMs - now.getTime()) / 1000),
    });
  }
  if (await verifyPassword(passwordHash, paymentPassword)) {
    await clearCounter(deps.db, key);
    return;
  }
  // The attempt stays counted. The answer says how many are left (0: it is now locked).
  throw new AppError('WRONG_PAYMENT_PASSWORD', {
    failuresLeft: decision.failuresLeftIfWrong,
    maxFailures: PAYMENT_PASSWORD_MAX_FAILURES,
    lockedUntil: decision.next.lockedUntilMs === null ? null : new Date(decision.next.lockedUntilMs).toISOString(),
  });
}

/** The rule and where the user stands, for the security overview. */
export async function paymentPasswordLockState(
  deps: Deps,
  user: Pick<UserRow, 'id'>,
): Promise<{ maxFailures: number; lockMinutes: number; failuresLeft: number; lockedUntil: string | null }> {
  const standing = paymentPasswordStanding(await readCounter(deps.db, paymentPasswordKey(user)), deps.now().getTime());
  return {
    maxFailures: PAYMENT_PASSWORD_MAX_FAILURES,
    lockMinutes: PAYMENT_PASSWORD_LOCK_MS / 60_000,
    failuresLeft: standing.failuresLeft,
    lockedUntil: standing.lockedUntilMs === null ? null : new Date(standing.lockedUntilMs).toISOString(),
  };
}
