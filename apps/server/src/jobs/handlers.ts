import { purgeUnusedSwapQuotes } from '../persistence/swap-quotes.repository.ts';
import { enqueueJob, type JobHandler } from './runner.ts';
import { expireOrderJob } from '../use-cases/p2p/order-steps.ts';
import { EXPIRE_P2P_ORDER_JOB } from '../use-cases/p2p/place-order.ts';

const DAY_MS = 86_400_000;

/** The purge job for the day after `at`; each run schedules the next, and start-up schedules today's. */
export function purgeJobFor(at: Date) {
  const day = new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
  return { kind: 'sessions.purge-expired', key: `sessions.purge-expired:${day.toISOString().slice(0, 10)}`, runAt: day };
}

/**
 * Job kinds the server runs. Later features register their own (expiries, settlement, interest,
 * snapshots). The daily purge removes ended sessions, expired idempotency answers and unused swap
 * quotes older than a day, so those
 * tables do not grow forever (the job key keeps its first name so scheduled rows stay valid).
 */
export const jobHandlers: Record<string, JobHandler> = {
  'sessions.purge-expired': async (tx, job) => {
    await enqueueJob(tx, purgeJobFor(new Date(job.run_at.getTime() + DAY_MS)));
    await tx.query(`DELETE FROM sessions WHERE expires_at < now() - interval '7 days'`);
    await tx.query(`DELETE FROM staff_sessions WHERE expires_at < now() - interval '7 days'`);
    await tx.query('DELETE FROM idempotency_requests WHERE expires_at < now()');
    // Codes are kept a day (the send limits count the last hour); failure counts a day after the last
    // failure (the longest window, the payment password's, is 24 h; ADR 0018).
    await tx.query(`DELETE FROM verification_codes WHERE created_at < now() - interval '1 day'`);
    await tx.query(`DELETE FROM login_failures WHERE last_failed_at < now() - interval '1 day' AND (locked_until IS NULL OR locked_until < now())`);
    await purgeUnusedSwapQuotes(tx, new Date(job.run_at.getTime() - DAY_MS));
  },
  // The end of a P2P order's payment window (issue 6): an unpaid order is cancelled, once.
  [EXPIRE_P2P_ORDER_JOB]: expireOrderJob,
};
