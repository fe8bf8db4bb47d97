import { normalizeIP } from '@fastify/rate-limit';
import { AppError } from '@keel/contracts';
import { decideLoginAttempt, nameCountAfterSuccess, settleLoginAttempt } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { type CounterKey, updateCounters } from '../../persistence/login-failures.store.ts';

/**
 * The address a login is counted from: IPv4 as it is, IPv6 by its /64 (what one subscriber gets,
 * so walking through a /64 is one source), as the per-address HTTP limit counts it.
 */
export function throttleSourceOf(clientIp: string | undefined): string {
  if (!clientIp) return 'unknown';
  try {
    return normalizeIP(clientIp).slice(0, 64);
  } catch {
    return clientIp.slice(0, 64);
  }
}

/** The counted attempt: how it ends. Ending it neither way leaves it counted as a failure. */
export interface LoginAttempt {
  /** Everything was right: this address's count is forgotten, the attempt taken out of the name's. */
  succeeded(): Promise<void>;
  /** The password was right but a second step is still to come: the attempt is taken back out of both counts. */
  settle(): Promise<void>;
}

/**
 * Counts a login attempt BEFORE its password is checked (ADR 0018), or refuses it with 429 and
 * the seconds to wait. `identifier` is the name as typed (`email:…`, `username:…`, `staff:…`),
 * never the account, so answers are the same whether an account has the name or not. The
 * counters are rows in the database (shared by every server process), locked for the decision.
 * Whatever the caller throws after this without ending the attempt stays counted — a wrong
 * password, a wrong two-step code, a disabled account.
 */
export async function beginLoginAttempt(deps: Deps, input: { identifier: string; clientIp?: string }): Promise<LoginAttempt> {
  const nameKey: CounterKey = { identifier: input.identifier, source: '' };
  const sourceKey: CounterKey = { identifier: input.identifier, source: throttleSourceOf(input.clientIp) };
  // The name-wide row first, always: one lock order for every attempt.
  const keys = [nameKey, sourceKey];
  const now = deps.now();
  const decision = await updateCounters(deps.db, keys, now, ([name, source]) => {
    const decided = decideLoginAttempt({ name, source }, now.getTime());
    return { decision: decided, next: decided.allowed ? [decided.next.name, decided.next.source] : undefined };
  });
  if (!decision.allowed) throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000) });
  return {
    async succeeded() {
      await updateCounters(deps.db, keys, deps.now(), ([name]) => ({
        decision: undefined,
        next: [name ? nameCountAfterSuccess(name) : undefined, null],
      }));
    },
    async settle() {
      const settledAt = deps.now();
      await updateCounters(deps.db, keys, settledAt, ([name, source]) => {
        if (!name || !source) return { decision: undefined };
        const settled = settleLoginAttempt({ name, source }, settledAt.getTime());
        return { decision: undefined, next: [settled.name, settled.source] };
      });
    },
  };
}
