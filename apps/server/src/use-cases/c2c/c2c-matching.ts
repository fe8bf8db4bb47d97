import { C2C_CONFIRM_WINDOW_MS, C2C_OFFER_WINDOW_MS, type C2cCommand, type C2cKind, type MerchantCandidate, nextMerchant } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { startPeriodicPass } from '../../jobs/periodic-pass.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { onlineTerms } from './c2c-requests.ts';
import { applyC2cStep } from './c2c-steps.ts';

/** How often each node looks for requests to offer and deadlines passed. */
export const C2C_SWEEP_INTERVAL_MS = 2_000;
/** Requests worked per transaction at most. */
export const C2C_REQUESTS_PER_BATCH = 20;

export interface C2cSweepOutcome {
  requestId: bigint;
  userId: bigint;
  step: C2cCommand['kind'];
  merchantId?: bigint;
}

/**
 * Claims up to a batch of requests `where` (on `r`, $1 = now in ms), oldest first, FOR UPDATE SKIP
 * LOCKED, and works each in that one transaction; batch after batch until none is left. Any number
 * of nodes may sweep at once: a request is worked by one of them, and a crash loses only the batch
 * in flight, which the next pass finds again (every step is a state change the machine refuses
 * twice).
 */
async function inBatches(
  deps: Pick<Deps, 'db' | 'now'>,
  where: string,
  work: (tx: Queryable, requestId: bigint, at: Date) => Promise<C2cSweepOutcome | null>,
): Promise<C2cSweepOutcome[]> {
  const outcomes: C2cSweepOutcome[] = [];
  const skipped = new Set<bigint>();
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const at = deps.now();
      const rows = await tx.query<{ id: bigint }>(
        `SELECT r.id FROM c2c_requests r WHERE ${where} AND NOT (r.id = ANY($2::bigint[])) ORDER BY r.id LIMIT $3 FOR UPDATE SKIP LOCKED`,
        [at.getTime(), [...skipped].map(String), C2C_REQUESTS_PER_BATCH],
      );
      const done: C2cSweepOutcome[] = [];
      for (const row of rows) {
        const outcome = await work(tx, row.id, at);
        if (outcome) done.push(outcome);
        // A request nobody can take now stays matching; it is not claimed again in this pass.
        else skipped.add(row.id);
      }
      return { claimed: rows.length, done };
    });
    outcomes.push(...batch.done);
    if (batch.claimed < C2C_REQUESTS_PER_BATCH) return outcomes;
  }
}

const systemStep = (command: C2cCommand) => async (tx: Queryable, requestId: bigint, at: Date) => {
  const before = await applyC2cStep(tx, requestId, { kind: 'system' }, command, at);
  return before ? { requestId, userId: before.user_id, step: command.kind } : null;
};

/** Requests whose window to be matched ended: failed, nothing moved (a withdrawal's own hold released). */
export const failUnmatched = (deps: Pick<Deps, 'db' | 'now'>) =>
  inBatches(deps, `r.status IN ('matching', 'offered') AND r.match_deadline_ms <= $1`, systemStep({ kind: 'match_timeout' }));

/** Offers not answered in time: the request goes back to matching, the next merchant is offered it. */
export const lapseOffers = (deps: Pick<Deps, 'db' | 'now'>) =>
  inBatches(deps, `r.status = 'offered' AND r.offer_deadline_ms <= $1`, systemStep({ kind: 'offer_lapsed' }));

/** Matched orders not paid in time: failed, the hold released. */
export const failUnpaid = (deps: Pick<Deps, 'db' | 'now'>) =>
  inBatches(deps, `r.status = 'awaiting_payment' AND r.payment_deadline_ms <= $1`, systemStep({ kind: 'payment_timeout' }));

/** Paid withdrawals the user left unanswered: to support, never released on silence. */
export const escalateUnconfirmed = (deps: Pick<Deps, 'db' | 'now'>) =>
  inBatches(deps, `r.kind = 'withdrawal' AND r.status = 'paid' AND r.paid_at_ms + ${C2C_CONFIRM_WINDOW_MS} <= $1`, systemStep({ kind: 'confirm_timeout' }));

/**
 * Offers one request to the next merchant by the published fair rule (`nextMerchant`): online,
 * serving the country, not yet tried for it, limits and (a deposit) free float covering it, at the
 * price the user was shown or better for them; then the best price, the least recently matched,
 * the lowest id. Null when nobody qualifies now (it stays matching until someone does or its
 * window ends).
 */
export async function offerRequest(tx: Queryable, requestId: bigint, at: Date): Promise<C2cSweepOutcome | null> {
  const [request] = await tx.query<{ user_id: bigint; kind: C2cKind; country: string; usdt_minor: string; quoted_price_fiat_minor: string }>(
    'SELECT user_id, kind, country, usdt_minor::text AS usdt_minor, quoted_price_fiat_minor::text AS quoted_price_fiat_minor FROM c2c_requests WHERE id = $1',
    [requestId],
  );
  if (!request) return null;
  const usdtMinor = toMinor(request.usdt_minor);
  const quotedMinor = toMinor(request.quoted_price_fiat_minor);
  const tried = new Set((await tx.query<{ merchant_id: bigint }>('SELECT merchant_id FROM c2c_offers WHERE request_id = $1', [requestId])).map((row) => row.merchant_id));
  const candidatesNow = async (): Promise<MerchantCandidate[]> =>
    (await onlineTerms(tx, request.country))
      .filter((terms) => {
        const price = toMinor(terms.price_fiat_minor);
        return request.kind === 'deposit' ? price <= quotedMinor : price >= quotedMinor;
      })
      .map((terms) => ({
        merchantId: terms.merchant_id,
        online: true,
        priceFiatMinor: toMinor(terms.price_fiat_minor),
        minUsdtMinor: toMinor(terms.min_usdt_minor),
        maxUsdtMinor: toMinor(terms.max_usdt_minor),
        freeFloatMinor: toMinor(terms.free_float_minor),
        lastMatchedAtMs: terms.last_matched_at_ms === null ? null : Number(terms.last_matched_at_ms),
      }));
  // The chosen merchant's row is locked before the offer (SKIP LOCKED: a merchant another node is
  // offering to, or who is accepting right now, is passed over this time), and the choice is made
  // again under the lock: so two nodes never offer one merchant more than their free float could
  // hold, and no sweep waits on another (no deadlock between batches).
  const passedOver = new Set(tried);
  let chosen: MerchantCandidate | null = null;
  while (chosen === null) {
    const candidate = nextMerchant(request.kind, usdtMinor, await candidatesNow(), passedOver);
    if (!candidate) return null;
    const [locked] = await tx.query('SELECT staff_id FROM c2c_merchants WHERE staff_id = $1 FOR UPDATE SKIP LOCKED', [candidate.merchantId]);
    const again = locked ? nextMerchant(request.kind, usdtMinor, await candidatesNow(), passedOver) : null;
    if (again?.merchantId === candidate.merchantId) chosen = again;
    else passedOver.add(candidate.merchantId);
  }
  const before = await applyC2cStep(tx, requestId, { kind: 'system' }, { kind: 'offer', merchantId: chosen.merchantId }, at);
  if (!before) return null;
  await tx.query('UPDATE c2c_requests SET offered_merchant_id = $2, offer_deadline_ms = $3 WHERE id = $1', [requestId, chosen.merchantId, at.getTime() + C2C_OFFER_WINDOW_MS]);
  await tx.query('INSERT INTO c2c_offers (request_id, merchant_id, price_fiat_minor, offered_at) VALUES ($1, $2, $3, $4)', [
    requestId,
    chosen.merchantId,
    chosen.priceFiatMinor.toString(),
    at,
  ]);
  return { requestId, userId: request.user_id, step: 'offer', merchantId: chosen.merchantId };
}

/** Requests waiting for a merchant, each offered to the next one. */
export const offerWaitingRequests = (deps: Pick<Deps, 'db' | 'now'>) => inBatches(deps, `r.status = 'matching' AND r.match_deadline_ms > $1`, offerRequest);

/** One pass: deadlines first (so nothing late is offered or kept), then offers. */
export async function sweepC2c(deps: Pick<Deps, 'db' | 'now' | 'events' | 'logger'>): Promise<C2cSweepOutcome[]> {
  const outcomes = [
    ...(await failUnmatched(deps)),
    ...(await lapseOffers(deps)),
    ...(await failUnpaid(deps)),
    ...(await escalateUnconfirmed(deps)),
    ...(await offerWaitingRequests(deps)),
  ];
  // Users were sent a message in the step's transaction for the steps that end or escalate an order.
  for (const userId of new Set(outcomes.filter((each) => each.step !== 'offer' && each.step !== 'offer_lapsed').map((each) => each.userId))) {
    await publishToUser(deps, userId, { kind: 'message', unread: true });
  }
  return outcomes;
}

/** The C2C job of one node: a pass every `intervalMs`; a failed pass is logged and retried, nothing of it committed. */
export function startC2cSweeps(deps: Pick<Deps, 'db' | 'now' | 'events' | 'logger'>, intervalMs = C2C_SWEEP_INTERVAL_MS): { stop: () => Promise<void> } {
  return startPeriodicPass(
    async () => {
      const outcomes = await sweepC2c(deps);
      if (outcomes.length > 0) {
        const count = (step: C2cCommand['kind']) => outcomes.filter((each) => each.step === step).length;
        deps.logger.info(
          { offered: count('offer'), lapsed: count('offer_lapsed'), unmatched: count('match_timeout'), unpaid: count('payment_timeout'), toSupport: count('confirm_timeout') },
          'c2c: swept',
        );
      }
    },
    { intervalMs, logger: deps.logger, failure: 'c2c: sweep failed' },
  );
}
