import { AppError, type ParameterErrorField, parameterErrorField } from '@keel/contracts';
import {
  type BankDetails,
  type BankDetailProblem,
  bankDetailsProblems,
  C2C_CONFIRM_WINDOW_MS,
  C2C_COUNTRIES,
  C2C_MATCH_WINDOW_MS,
  C2C_OFFER_WINDOW_MS,
  C2C_PAYMENT_WINDOW_MS,
  type C2cKind,
  c2cCountryCodes,
  compactBankText,
  fiatTradeDecision,
  isC2cCountry,
  LedgerError,
  mulDiv,
  usdtOfFiat,
  type WithdrawalAttempt,
  withdrawalRefusal,
  vipTermsOf,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { placeHold } from '../../persistence/ledger-holds.store.ts';
import { ensureUserAccount, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { parseUserAmount } from '../amount-input.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { refusalError, withdrawalsToday } from '../wallet/create-withdrawal.ts';
import { isUniqueViolation } from '../wallet/wallet-support.ts';
import { C2C_ASSET, C2C_SCALE } from './c2c-support.ts';
import { applyC2cStep, type C2cStepExtra } from './c2c-steps.ts';
import { C2C_SELECT, type C2cRequestRow, type C2cRequestView, c2cRequestView, fiatText, readRequestRow, usdtText } from './c2c-views.ts';
import type { C2cCommand } from '@keel/domain';

const DAY_MS = 86_400_000;
const USDT_ONE = 10n ** BigInt(C2C_SCALE);
const FIAT_SCALE = 2;

/** The published windows of the channel. */
export const c2cWindows = {
  matchMinutes: C2C_MATCH_WINDOW_MS / 60_000,
  offerSeconds: C2C_OFFER_WINDOW_MS / 1000,
  paymentMinutes: C2C_PAYMENT_WINDOW_MS / 60_000,
  confirmMinutes: C2C_CONFIRM_WINDOW_MS / 60_000,
};

/** One online merchant's terms for a country, with their free float less what is offered to them and not yet answered. */
export interface EligibleTerms {
  merchant_id: bigint;
  price_fiat_minor: string;
  min_usdt_minor: string;
  max_usdt_minor: string;
  free_float_minor: string;
  last_matched_at_ms: string | null;
}

/**
 * The terms of every online merchant serving `country`, with what their float could still back: the
 * float's available USDT less the USDT of offers they have not answered (an offer promises nothing,
 * but the matcher does not offer more than an acceptance could hold: it reads this again under the
 * merchant's row lock before each offer).
 */
export function onlineTerms(db: Queryable, country: string): Promise<EligibleTerms[]> {
  return db.query<EligibleTerms>(
    `SELECT t.merchant_id, t.price_fiat_minor::text AS price_fiat_minor, t.min_usdt_minor::text AS min_usdt_minor, t.max_usdt_minor::text AS max_usdt_minor,
       (COALESCE(a.available_minor, 0) - COALESCE((SELECT sum(r.usdt_minor) FROM c2c_offers o JOIN c2c_requests r ON r.id = o.request_id
          WHERE o.merchant_id = t.merchant_id AND o.outcome IS NULL AND r.kind = 'deposit'), 0))::text AS free_float_minor,
       m.last_matched_at_ms::text AS last_matched_at_ms
     FROM c2c_merchant_terms t JOIN c2c_merchants m ON m.staff_id = t.merchant_id
       LEFT JOIN ledger_accounts a ON a.user_id IS NULL AND a.kind = 'treasury' AND a.asset = $2 AND a.label = 'merchant:' || t.merchant_id::text
     WHERE t.country = $1 AND m.online
     ORDER BY t.merchant_id`,
    [country, C2C_ASSET],
  );
}

/** Whether an online merchant could take `usdtMinor` now: limits, and for a deposit the free float. */
function canTake(kind: C2cKind, terms: EligibleTerms, usdtMinor: bigint): boolean {
  return (
    usdtMinor >= toMinor(terms.min_usdt_minor) && usdtMinor <= toMinor(terms.max_usdt_minor) && (kind === 'withdrawal' || toMinor(terms.free_float_minor) >= usdtMinor)
  );
}

/** Better for the user: a lower price to buy at, a higher price to sell at. */
const better = (kind: C2cKind, a: bigint, b: bigint) => (kind === 'deposit' ? a < b : a > b);

async function unfinishedOrderId(db: Queryable, userId: bigint): Promise<bigint | null> {
  const [row] = await db.query<{ id: bigint }>(`SELECT id FROM c2c_requests WHERE user_id = $1 AND status NOT IN ('succeeded', 'failed')`, [userId]);
  return row?.id ?? null;
}

/** The countries, each with the best online price and the order limits some merchant takes, for deposits or withdrawals. */
export async function c2cOptions(deps: Pick<Deps, 'db'>, userId: bigint, kind: C2cKind) {
  const countries = [];
  for (const country of c2cCountryCodes) {
    const terms = await onlineTerms(deps.db, country);
    let best: bigint | null = null;
    let minUsdt: bigint | null = null;
    let maxUsdt: bigint | null = null;
    for (const each of terms) {
      const price = toMinor(each.price_fiat_minor);
      if (best === null || better(kind, price, best)) best = price;
      const min = toMinor(each.min_usdt_minor);
      // A deposit cannot be larger than what the float could hold.
      const max = kind === 'deposit' ? [toMinor(each.max_usdt_minor), toMinor(each.free_float_minor)].reduce((a, b) => (a < b ? a : b)) : toMinor(each.max_usdt_minor);
      if (max < min) continue;
      if (minUsdt === null || min < minUsdt) minUsdt = min;
      if (maxUsdt === null || max > maxUsdt) maxUsdt = max;
    }
    countries.push({
      country,
      currency: C2C_COUNTRIES[country].currency,
      bestPrice: best === null ? null : fiatText(best),
      minUsdt: minUsdt === null ? null : usdtText(minUsdt),
      maxUsdt: maxUsdt === null ? null : usdtText(maxUsdt),
    });
  }
  const unfinished = await unfinishedOrderId(deps.db, userId);
  return { countries, windows: c2cWindows, unfinishedOrderId: unfinished?.toString() ?? null };
}

/** USDT of the user's C2C orders in the last 30 days that were not failed (for the verification thresholds of fiat trades). */
async function c2cLast30DaysMinor(db: Queryable, userId: bigint, nowMs: number): Promise<bigint> {
  const [row] = await db.query<{ total: string }>(
    `SELECT COALESCE(sum(usdt_minor), 0)::text AS total FROM c2c_requests WHERE user_id = $1 AND created_at >= $2 AND status <> 'failed'`,
    [userId, new Date(nowMs - 30 * DAY_MS)],
  );
  return toMinor(row!.total);
}

const BANK_PROBLEM_RULE: Record<BankDetailProblem, Parameters<typeof parameterErrorField>[1]> = {
  required: 'required',
  invalid_iban: 'iban',
  invalid_routing_number: 'routingNumber',
  invalid_swift: 'swiftCode',
  invalid_card_number: 'cardNumber',
  invalid_account_number: 'bankAccountNumber',
};

/** Bank details as stored: trimmed, and the coded fields (IBAN, BIC, card, routing) compacted. */
function normalisedBankDetails(details: BankDetails): BankDetails {
  const trimmed = Object.fromEntries(Object.entries(details).map(([key, value]) => [key, value.trim()])) as unknown as BankDetails;
  return {
    ...trimmed,
    accountNumber: compactBankText(trimmed.accountNumber),
    swiftCode: compactBankText(trimmed.swiftCode),
    cardNumber: compactBankText(trimmed.cardNumber),
    routingNumber: compactBankText(trimmed.routingNumber),
  };
}

interface CreateInput {
  country: string;
  amount: string;
  amountIn: 'fiat' | 'usdt';
  quotedPrice: string;
  requestKey?: string;
}

/**
 * A C2C request: a deposit (buy USDT with fiat) or a withdrawal (sell USDT for fiat, the bank details
 * checked by the country's formats, the published withdrawal rules and the payment password).
 * Refused before anything is written:
 * an unfinished order (its id in the answer: the user is told to complete it), identity
 * verification and the fiat trade thresholds, no online merchant for this amount, a quoted price no
 * merchant offers any more (the best one in the answer). A withdrawal's USDT is held on the fiat
 * account in the request's transaction. One unfinished order per user is also a unique index, so
 * two requests at once cannot both be written. Locks (a withdrawal): the user's row, then the new
 * request, then (placeHold) the fiat account. Through the API the answer commits with the request.
 */
export async function createC2cRequest(
  deps: Deps,
  user: UserRow,
  kind: C2cKind,
  input: CreateInput & { bankDetails?: BankDetails; paymentPassword?: string },
  idempotency?: IdempotentRequest<C2cRequestView>,
): Promise<C2cRequestView> {
  if (!isC2cCountry(input.country)) throw new AppError('PARAMETER_ERROR', { fields: [parameterErrorField('body.country', 'countryCode')] });
  const quotedPriceMinor = parseUserAmount(input.quotedPrice, FIAT_SCALE, 'quotedPrice');
  const amountMinor = parseUserAmount(input.amount, input.amountIn === 'fiat' ? FIAT_SCALE : C2C_SCALE, 'amount');
  const usdtMinor = input.amountIn === 'usdt' ? amountMinor : usdtOfFiat(kind, amountMinor, quotedPriceMinor);
  if (usdtMinor <= 0n) throw new AppError('WRONG_AMOUNT', { field: 'amount', problem: 'too_small' });
  let bankDetails: BankDetails | null = null;
  if (kind === 'withdrawal') {
    bankDetails = normalisedBankDetails(input.bankDetails!);
    const problems = bankDetailsProblems(input.country, bankDetails);
    const fields: ParameterErrorField[] = Object.entries(problems).map(([field, problem]) =>
      parameterErrorField(`body.bankDetails.${field}`, BANK_PROBLEM_RULE[problem as BankDetailProblem]),
    );
    if (fields.length > 0) throw new AppError('PARAMETER_ERROR', { fields });
  }
  const unfinished = await unfinishedOrderId(deps.db, user.id);
  if (unfinished !== null) throw new AppError('C2C_ORDER_UNFINISHED', { orderId: unfinished.toString() });
  const now = deps.now();
  const nowMs = now.getTime();
  const tier = (await verificationStatesOf(deps.db, user.id)).tier;
  const decision = fiatTradeDecision(tier, {
    amountUsdt: mulDiv(usdtMinor, 1n, USDT_ONE, 'ceil'),
    last30DaysUsdt: mulDiv(await c2cLast30DaysMinor(deps.db, user.id, nowMs), 1n, USDT_ONE, 'ceil'),
  });
  if (!decision.allowed) throw new AppError(decision.needs === 'identity' ? 'IDENTITY_VERIFICATION_REQUIRED' : 'ADVANCED_VERIFICATION_REQUIRED');
  const able = (await onlineTerms(deps.db, input.country)).filter((terms) => canTake(kind, terms, usdtMinor));
  if (able.length === 0) throw new AppError('C2C_NO_MERCHANT');
  const bestMinor = able.map((terms) => toMinor(terms.price_fiat_minor)).reduce((a, b) => (better(kind, a, b) ? a : b));
  if (better(kind, quotedPriceMinor, bestMinor)) throw new AppError('C2C_PRICE_CHANGED', { price: fiatText(bestMinor) });
  // A withdrawal is money leaving the user's control: the published withdrawal rules apply, and it
  // counts in the same daily count and USDT limit as withdrawals and transfers (decisions page 1.3).
  const attempt = (today: { requests: number; usedUsdtMinor: bigint; vipLevel: number }): WithdrawalAttempt => ({
    nowMs,
    userStatus: user.status,
    tier,
    loginPasswordChangedAtMs: user.login_password_changed_at?.getTime() ?? null,
    addressAddedAtMs: null,
    requestsTodayCount: today.requests,
    vip: vipTermsOf(today.vipLevel, deps.config.VIP_LEVELS),
    usedTodayUsdtMinor: today.usedUsdtMinor,
    usdtValueMinor: usdtMinor,
  });
  if (kind === 'withdrawal') {
    const early = withdrawalRefusal(deps.wallet.policy, attempt(await withdrawalsToday(deps.db, user.id, nowMs)));
    if (early) throw refusalError(early);
    await checkPaymentPassword(deps, user, input.paymentPassword ?? '');
  }

  try {
    return await deps.db.transaction(async (tx) => {
      if (kind === 'withdrawal') {
        // The lock withdrawals and transfers take: one user's requests are judged one at a time against today's totals.
        await tx.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [user.id]);
        const refusal = withdrawalRefusal(deps.wallet.policy, attempt(await withdrawalsToday(tx, user.id, nowMs)));
        if (refusal) throw refusalError(refusal);
      }
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('c2c_requests', 'id')) AS id`)) as [{ id: bigint }];
      const orderNo = `C${now.toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`;
      await tx.query(
        `INSERT INTO c2c_requests (id, order_no, user_id, kind, status, country, currency, usdt_minor, quoted_price_fiat_minor, match_deadline_ms,
           bank_details, request_key, created_at, updated_at)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, 'matching', $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
        [
          id,
          orderNo,
          user.id,
          kind,
          input.country,
          C2C_COUNTRIES[input.country as keyof typeof C2C_COUNTRIES].currency,
          usdtMinor.toString(),
          quotedPriceMinor.toString(),
          nowMs + C2C_MATCH_WINDOW_MS,
          bankDetails === null ? null : JSON.stringify(bankDetails),
          input.requestKey ?? null,
          now,
        ],
      );
      if (kind === 'withdrawal') {
        const fiatAccount = await ensureUserAccount(tx, user.id, 'fiat', C2C_ASSET);
        const hold = await placeHold(tx, { accountId: fiatAccount, amountMinor: usdtMinor, referenceType: 'c2c_request', referenceId: id.toString(), reason: 'c2c.withdrawal_hold', at: now });
        await tx.query('UPDATE c2c_requests SET hold_id = $2 WHERE id = $1', [id, hold.holdId]);
        await tx.query(
          `INSERT INTO c2c_bank_details (user_id, country, details, updated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (user_id, country) DO UPDATE SET details = EXCLUDED.details, updated_at = EXCLUDED.updated_at`,
          [user.id, input.country, JSON.stringify(bankDetails), now],
        );
      }
      const view = c2cRequestView((await readRequestRow(tx, id))!);
      await idempotency?.answerInTransaction(tx, view);
      return view;
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    if (isUniqueViolation(error, 'c2c_requests_one_open')) {
      const other = await unfinishedOrderId(deps.db, user.id);
      throw new AppError('C2C_ORDER_UNFINISHED', other === null ? undefined : { orderId: other.toString() });
    }
    throw error;
  }
}

export async function listC2cRequests(deps: Pick<Deps, 'db'>, userId: bigint, query: { kind: C2cKind; page: number; pageSize: number }) {
  const rows = await deps.db.query<C2cRequestRow>(`${C2C_SELECT} WHERE r.user_id = $1 AND r.kind = $2 ORDER BY r.id DESC LIMIT $3 OFFSET $4`, [
    userId,
    query.kind,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>('SELECT count(*)::int AS total FROM c2c_requests WHERE user_id = $1 AND kind = $2', [userId, query.kind]);
  return { items: rows.map(c2cRequestView), total: count!.total };
}

export async function getC2cRequest(deps: Pick<Deps, 'db'>, userId: bigint, requestId: bigint) {
  const row = await readRequestRow(deps.db, requestId);
  if (!row || row.user_id !== userId) throw new AppError('RECORD_NOT_FOUND');
  return c2cRequestView(row);
}

export async function savedBankDetails(deps: Pick<Deps, 'db'>, userId: bigint, country: string) {
  const [row] = await deps.db.query<{ details: BankDetails }>('SELECT details FROM c2c_bank_details WHERE user_id = $1 AND country = $2', [userId, country]);
  return row?.details ?? null;
}

/** A user's step, its answer committed with it (ADR 0019). */
async function userStep(deps: Deps, user: UserRow, requestId: bigint, command: C2cCommand, idempotency?: IdempotentRequest<C2cRequestView>, extra?: C2cStepExtra) {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    await applyC2cStep(tx, requestId, { kind: 'user', userId: user.id }, command, at, extra);
    const view = c2cRequestView((await readRequestRow(tx, requestId))!);
    await idempotency?.answerInTransaction(tx, view);
    return view;
  });
}

/** A deposit's user says they paid, with their screenshot (an upload of theirs, purpose c2c_proof). */
export async function markC2cPaid(deps: Deps, user: UserRow, requestId: bigint, uploadId: bigint, idempotency?: IdempotentRequest<C2cRequestView>) {
  const [upload] = await deps.db.query(`SELECT 1 FROM uploads WHERE id = $1 AND user_id = $2 AND purpose = 'c2c_proof'`, [uploadId, user.id]);
  if (!upload) throw new AppError('RECORD_NOT_FOUND', { field: 'uploadId' });
  return userStep(deps, user, requestId, { kind: 'mark_paid' }, idempotency, { proofUploadId: uploadId });
}

/** A withdrawal's user confirms the fiat arrived, with the payment password (checked after the order is known to be theirs). */
export async function confirmC2cReceived(deps: Deps, user: UserRow, requestId: bigint, paymentPassword: string, idempotency?: IdempotentRequest<C2cRequestView>) {
  await getC2cRequest(deps, user.id, requestId);
  await checkPaymentPassword(deps, user, paymentPassword);
  return userStep(deps, user, requestId, { kind: 'confirm' }, idempotency);
}

export const cancelC2cRequest = (deps: Deps, user: UserRow, requestId: bigint, idempotency?: IdempotentRequest<C2cRequestView>) =>
  userStep(deps, user, requestId, { kind: 'cancel' }, idempotency);

export const appealC2cRequest = (deps: Deps, user: UserRow, requestId: bigint, reason: string, idempotency?: IdempotentRequest<C2cRequestView>) =>
  userStep(deps, user, requestId, { kind: 'appeal', by: 'user' }, idempotency, { appealReason: reason });
