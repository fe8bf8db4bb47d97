import { mulDiv } from '../money/amount.ts';

/**
 * C2C fiat deposit and withdrawal through merchants (spec sections 1, 4 and 9; decisions page
 * "C2C"; issue 19) as pure rules: the two request state machines, who may be offered a request,
 * and how fiat and USDT amounts convert at a merchant's price. The server applies each answer in
 * one transaction; nothing here reads a clock or a database.
 *
 * A deposit (the user buys USDT with fiat):
 *
 *   matching ──offer──▶ offered ──merchant accepts──▶ awaiting_payment ──user pays──▶ paid ──merchant confirms──▶ succeeded
 *      ▲   ◀──declines / lapses──┘  (float held)              │ window ends / user cancels      │ either side disputes
 *      │ window ends / user cancels: failed, nothing moved      ▼                                 ▼
 *      └────────────────────────────────────────────── failed (hold released)        appealing ──support──▶ succeeded | failed
 *
 * A withdrawal (the user sells USDT for fiat; the user's USDT is held from the request):
 *
 *   matching ──offer──▶ offered ──merchant accepts──▶ awaiting_payment ──merchant pays, with proof──▶ paid ──user confirms──▶ succeeded
 *      window ends / user cancels before a merchant accepts: failed (the user's hold released)     │ user appeals, or no answer in time
 *      the merchant does not pay in time: failed (the user's hold released)                         ▼
 *                                                                                    appealing ──support──▶ succeeded | failed
 *
 * A paid withdrawal is never released automatically: if the user does not answer in the published
 * time after the merchant's proof, it goes to support (decisions page: nothing is released on
 * silence).
 */

export type C2cKind = 'deposit' | 'withdrawal';

export type C2cStatus = 'matching' | 'offered' | 'awaiting_payment' | 'paid' | 'appealing' | 'succeeded' | 'failed';

export const c2cStatuses: readonly C2cStatus[] = ['matching', 'offered', 'awaiting_payment', 'paid', 'appealing', 'succeeded', 'failed'];

/** The spec's C2C deposit states, in its words, for each status (the withdrawal shows the same). */
export const c2cSpecState: Record<C2cStatus, string> = {
  matching: 'matching a merchant',
  offered: 'waiting to be assigned',
  awaiting_payment: 'to be paid',
  paid: 'to be reviewed',
  appealing: 'to be reviewed',
  succeeded: 'success',
  failed: 'failed',
};

/** Decisions page: an unmatched request fails after 5 minutes; a matched one must be paid within 5. */
export const C2C_MATCH_WINDOW_MS = 5 * 60_000;
export const C2C_PAYMENT_WINDOW_MS = 5 * 60_000;
/** How long one merchant has to accept an offer before the next is offered (spec: matching takes 1 to 5 minutes). */
export const C2C_OFFER_WINDOW_MS = 60_000;
/** A withdrawal whose user has not confirmed or appealed this long after the merchant's proof goes to support. */
export const C2C_CONFIRM_WINDOW_MS = 30 * 60_000;

export function isC2cOpen(status: C2cStatus): boolean {
  return status !== 'succeeded' && status !== 'failed';
}

export interface C2cState {
  kind: C2cKind;
  status: C2cStatus;
  /** The end of matching: created + C2C_MATCH_WINDOW_MS. */
  matchDeadlineMs: number;
  /** The end of the current offer (status offered), else null. */
  offerDeadlineMs: number | null;
  /** The end of the payment window (status awaiting_payment), else null. */
  paymentDeadlineMs: number | null;
  /** When the payer marked it paid (status paid), else null. */
  paidAtMs: number | null;
}

export type C2cCommand =
  | { kind: 'offer'; merchantId: bigint }
  | { kind: 'accept' }
  | { kind: 'decline' }
  | { kind: 'offer_lapsed' }
  | { kind: 'match_timeout' }
  | { kind: 'mark_paid' }
  | { kind: 'payment_timeout' }
  | { kind: 'confirm' }
  | { kind: 'cancel' }
  | { kind: 'appeal'; by: 'user' | 'merchant' }
  | { kind: 'confirm_timeout' }
  | { kind: 'resolve'; outcome: 'complete' | 'fail' };

export type C2cCommandKind = C2cCommand['kind'];

/**
 * What a step does to money:
 * - `hold_merchant_float`: a deposit accepted — the order's USDT is held on the merchant's float;
 * - `release_merchant_hold`: a deposit ended unpaid or refused — that hold returns to the float;
 * - `pay_user`: a deposit completed — the merchant's held USDT goes to the user;
 * - `release_user_hold`: a withdrawal ended — the user's held USDT returns to them;
 * - `pay_merchant`: a withdrawal completed — the user's held USDT goes to the merchant's float;
 * - `none`.
 */
export type C2cEffect = 'none' | 'hold_merchant_float' | 'release_merchant_hold' | 'pay_user' | 'release_user_hold' | 'pay_merchant';

/** Who acts in a step: the user, the merchant offered or assigned, the system (jobs), support staff. */
export type C2cActor = 'user' | 'merchant' | 'system' | 'support';

export type C2cProblem = 'wrong_state' | 'not_your_step' | 'too_early' | 'too_late';

export type C2cOutcome = { ok: true; status: C2cStatus; effect: C2cEffect } | { ok: false; problem: C2cProblem };

/** Who may send each command (the server checks the caller against it before the machine). */
export const c2cCommandActor: Record<C2cKind, Record<C2cCommandKind, readonly C2cActor[]>> = {
  deposit: {
    offer: ['system'],
    accept: ['merchant'],
    decline: ['merchant'],
    offer_lapsed: ['system'],
    match_timeout: ['system'],
    // The user pays the merchant and says so with the transaction screenshot.
    mark_paid: ['user'],
    payment_timeout: ['system'],
    // The merchant confirms the fiat arrived.
    confirm: ['merchant'],
    cancel: ['user'],
    appeal: ['user', 'merchant'],
    confirm_timeout: [],
    resolve: ['support'],
  },
  withdrawal: {
    offer: ['system'],
    accept: ['merchant'],
    decline: ['merchant'],
    offer_lapsed: ['system'],
    match_timeout: ['system'],
    // The merchant pays the user's bank and uploads the proof.
    mark_paid: ['merchant'],
    payment_timeout: ['system'],
    // The user confirms the fiat arrived.
    confirm: ['user'],
    cancel: ['user'],
    appeal: ['user'],
    confirm_timeout: ['system'],
    resolve: ['support'],
  },
};

const ok = (status: C2cStatus, effect: C2cEffect = 'none'): C2cOutcome => ({ ok: true, status, effect });
const refuse = (problem: C2cProblem): C2cOutcome => ({ ok: false, problem });

/** What ending a request before it is paid does to money: a deposit's float hold (if accepted) or a withdrawal's own hold. */
function failEffect(state: C2cState): C2cEffect {
  if (state.kind === 'withdrawal') return 'release_user_hold';
  return state.status === 'awaiting_payment' ? 'release_merchant_hold' : 'none';
}

/**
 * One command by `actor` at `nowMs`. Timeouts are sent by jobs that may run late but never early:
 * before its deadline a timeout is refused `too_early`, and a step after its deadline is refused
 * `too_late` (the job that ends it is due).
 */
export function c2cTransition(state: C2cState, actor: C2cActor, command: C2cCommand, nowMs: number): C2cOutcome {
  if (!c2cCommandActor[state.kind][command.kind].includes(actor)) return refuse('not_your_step');
  const completeEffect: C2cEffect = state.kind === 'deposit' ? 'pay_user' : 'pay_merchant';
  switch (command.kind) {
    case 'offer':
      if (state.status !== 'matching') return refuse('wrong_state');
      if (nowMs >= state.matchDeadlineMs) return refuse('too_late');
      return ok('offered');
    case 'accept':
      if (state.status !== 'offered') return refuse('wrong_state');
      if (nowMs >= state.matchDeadlineMs || (state.offerDeadlineMs !== null && nowMs >= state.offerDeadlineMs)) return refuse('too_late');
      return ok('awaiting_payment', state.kind === 'deposit' ? 'hold_merchant_float' : 'none');
    case 'decline':
      if (state.status !== 'offered') return refuse('wrong_state');
      return ok('matching');
    case 'offer_lapsed':
      if (state.status !== 'offered') return refuse('wrong_state');
      if (state.offerDeadlineMs === null || nowMs < state.offerDeadlineMs) return refuse('too_early');
      return ok('matching');
    case 'match_timeout':
      if (state.status !== 'matching' && state.status !== 'offered') return refuse('wrong_state');
      if (nowMs < state.matchDeadlineMs) return refuse('too_early');
      return ok('failed', failEffect(state));
    case 'mark_paid':
      if (state.status !== 'awaiting_payment') return refuse('wrong_state');
      if (state.paymentDeadlineMs !== null && nowMs >= state.paymentDeadlineMs) return refuse('too_late');
      return ok('paid');
    case 'payment_timeout':
      if (state.status !== 'awaiting_payment') return refuse('wrong_state');
      if (state.paymentDeadlineMs === null || nowMs < state.paymentDeadlineMs) return refuse('too_early');
      return ok('failed', failEffect(state));
    case 'confirm':
      if (state.status !== 'paid') return refuse('wrong_state');
      return ok('succeeded', completeEffect);
    case 'cancel':
      // A deposit may be called off until the user has paid; a withdrawal only until a merchant
      // accepted it (from then on the merchant may already be paying).
      if (state.status === 'matching' || state.status === 'offered') return ok('failed', failEffect(state));
      if (state.status === 'awaiting_payment' && state.kind === 'deposit') return ok('failed', failEffect(state));
      return refuse('wrong_state');
    case 'appeal':
      if (state.status !== 'paid') return refuse('wrong_state');
      return ok('appealing');
    case 'confirm_timeout':
      if (state.status !== 'paid') return refuse('wrong_state');
      if (state.paidAtMs === null || nowMs < state.paidAtMs + C2C_CONFIRM_WINDOW_MS) return refuse('too_early');
      // Never released on silence: support decides.
      return ok('appealing');
    case 'resolve':
      if (state.status !== 'appealing') return refuse('wrong_state');
      if (command.outcome === 'complete') return ok('succeeded', completeEffect);
      return ok('failed', state.kind === 'deposit' ? 'release_merchant_hold' : 'release_user_hold');
  }
}

/** One merchant's terms for a country and fiat currency, and their state, as the matcher sees them. */
export interface MerchantCandidate {
  merchantId: bigint;
  online: boolean;
  /** Fiat per whole USDT, in hundredths of the fiat, for this country and currency. */
  priceFiatMinor: bigint;
  /** Per-order limits in USDT minor units. */
  minUsdtMinor: bigint;
  maxUsdtMinor: bigint;
  /** What the float holds and is not promised to another order. */
  freeFloatMinor: bigint;
  /** When the merchant was last matched (accepted an order), null for never. */
  lastMatchedAtMs: number | null;
}

/**
 * The published fair rule of who is offered a request next: among online merchants serving the
 * country and currency (the caller passes only those), not yet tried for this request, whose
 * limits take the USDT amount, and — for a deposit — whose free float covers it: the best price
 * for the user first (a deposit: the lowest price; a withdrawal: the highest), then the one least
 * recently matched (never before all others), then the lowest id. Null when nobody qualifies.
 */
export function nextMerchant(kind: C2cKind, usdtMinor: bigint, candidates: readonly MerchantCandidate[], triedIds: ReadonlySet<bigint>): MerchantCandidate | null {
  const eligible = candidates.filter(
    (merchant) =>
      merchant.online &&
      !triedIds.has(merchant.merchantId) &&
      usdtMinor >= merchant.minUsdtMinor &&
      usdtMinor <= merchant.maxUsdtMinor &&
      (kind === 'withdrawal' || merchant.freeFloatMinor >= usdtMinor),
  );
  const sorted = [...eligible].sort((a, b) => {
    if (a.priceFiatMinor !== b.priceFiatMinor) return (kind === 'deposit' ? a.priceFiatMinor < b.priceFiatMinor : a.priceFiatMinor > b.priceFiatMinor) ? -1 : 1;
    const aLast = a.lastMatchedAtMs ?? Number.NEGATIVE_INFINITY;
    const bLast = b.lastMatchedAtMs ?? Number.NEGATIVE_INFINITY;
    if (aLast !== bLast) return aLast < bLast ? -1 : 1;
    return a.merchantId < b.merchantId ? -1 : a.merchantId > b.merchantId ? 1 : 0;
  });
  return sorted[0] ?? null;
}

const USDT_ONE_MINOR = 1_000_000n;

/**
 * The USDT of a fiat amount at a merchant's price, rounded in the merchant's favour: a deposit's
 * user receives the floor of what their fiat buys; a withdrawal's user gives the ceil of what the
 * fiat they want to receive costs.
 */
export function usdtOfFiat(kind: C2cKind, fiatMinor: bigint, priceFiatMinor: bigint): bigint {
  if (fiatMinor <= 0n || priceFiatMinor <= 0n) throw new RangeError('a positive amount and price');
  return mulDiv(fiatMinor, USDT_ONE_MINOR, priceFiatMinor, kind === 'deposit' ? 'floor' : 'ceil');
}

/**
 * The fiat of a USDT amount at a merchant's price. A deposit's user pays the ceil (the merchant is
 * never paid less than the price); a withdrawal's user is paid the floor (the merchant never pays
 * more than the price).
 */
export function fiatOfUsdt(kind: C2cKind, usdtMinor: bigint, priceFiatMinor: bigint): bigint {
  if (usdtMinor <= 0n || priceFiatMinor <= 0n) throw new RangeError('a positive amount and price');
  return mulDiv(usdtMinor, priceFiatMinor, USDT_ONE_MINOR, kind === 'deposit' ? 'ceil' : 'floor');
}
