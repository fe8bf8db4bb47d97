import { type BankDetails, C2C_CONFIRM_WINDOW_MS, type C2cKind, type C2cState, type C2cStatus, formatAmount, publicUserName } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { C2C_SCALE } from './c2c-support.ts';

/** A c2c_requests row with the merchant's public name and the user's name parts. */
export interface C2cRequestRow {
  id: bigint;
  order_no: string;
  user_id: bigint;
  kind: C2cKind;
  status: C2cStatus;
  country: string;
  currency: string;
  usdt_minor: string;
  quoted_price_fiat_minor: string;
  price_fiat_minor: string | null;
  fiat_minor: string | null;
  merchant_id: bigint | null;
  offered_merchant_id: bigint | null;
  match_deadline_ms: string;
  offer_deadline_ms: string | null;
  payment_deadline_ms: string | null;
  paid_at_ms: string | null;
  hold_id: bigint | null;
  bank_details: BankDetails | null;
  proof_upload_id: bigint | null;
  payment_reference: string | null;
  appeal_by: 'user' | 'merchant' | 'system' | null;
  appeal_reason: string | null;
  fail_reason: 'unmatched' | 'unpaid' | 'cancelled' | 'support' | null;
  resolution: 'complete' | 'fail' | null;
  resolved_by: bigint | null;
  resolution_note: string | null;
  proposed_outcome: 'complete' | 'fail' | null;
  proposed_by: bigint | null;
  proposed_at: Date | null;
  proposal_note: string | null;
  two_person_reason: unknown;
  closing_entry_id: bigint | null;
  created_at: Date;
  ended_at: Date | null;
  merchant_name: string | null;
  merchant_payment_details: string | null;
  username: string | null;
  nickname: string | null;
  email: string | null;
  phone: string | null;
}

/** Numeric columns as text (no precision lost), the merchant's public name and details, the user's name parts. */
export const C2C_SELECT = `SELECT r.id, r.order_no, r.user_id, r.kind, r.status, r.country, r.currency, r.usdt_minor::text AS usdt_minor,
    r.quoted_price_fiat_minor::text AS quoted_price_fiat_minor, r.price_fiat_minor::text AS price_fiat_minor, r.fiat_minor::text AS fiat_minor,
    r.merchant_id, r.offered_merchant_id, r.match_deadline_ms::text AS match_deadline_ms, r.offer_deadline_ms::text AS offer_deadline_ms,
    r.payment_deadline_ms::text AS payment_deadline_ms, r.paid_at_ms::text AS paid_at_ms, r.hold_id, r.bank_details, r.proof_upload_id,
    r.payment_reference, r.appeal_by, r.appeal_reason, r.fail_reason, r.resolution, r.resolved_by, r.resolution_note, r.proposed_outcome,
    r.proposed_by, r.proposed_at, r.proposal_note, r.two_person_reason, r.closing_entry_id, r.created_at, r.ended_at,
    m.display_name AS merchant_name, m.payment_details AS merchant_payment_details, u.username, u.nickname, u.email, u.phone
  FROM c2c_requests r JOIN users u ON u.id = r.user_id LEFT JOIN c2c_merchants m ON m.staff_id = r.merchant_id`;

const msOrNull = (text: string | null) => (text === null ? null : Number(text));
export const usdtText = (minor: bigint) => formatAmount(minor, C2C_SCALE);
/** Fiat amounts and prices are kept in hundredths. */
export const fiatText = (minor: bigint) => formatAmount(minor, 2);

/** The machine's view of a row (packages/domain/src/c2c/c2c.ts). */
export function c2cStateOf(row: C2cRequestRow): C2cState {
  return {
    kind: row.kind,
    status: row.status,
    matchDeadlineMs: Number(row.match_deadline_ms),
    offerDeadlineMs: msOrNull(row.offer_deadline_ms),
    paymentDeadlineMs: msOrNull(row.payment_deadline_ms),
    paidAtMs: msOrNull(row.paid_at_ms),
  };
}

/** The order as its user sees it. A deposit's merchant payment details show once the merchant accepted. */
export function c2cRequestView(row: C2cRequestRow) {
  const accepted = row.merchant_id !== null;
  const paidAtMs = msOrNull(row.paid_at_ms);
  return {
    id: row.id.toString(),
    orderNo: row.order_no,
    kind: row.kind,
    status: row.status,
    country: row.country,
    currency: row.currency,
    usdt: usdtText(toMinor(row.usdt_minor)),
    quotedPrice: fiatText(toMinor(row.quoted_price_fiat_minor)),
    price: row.price_fiat_minor === null ? null : fiatText(toMinor(row.price_fiat_minor)),
    fiat: row.fiat_minor === null ? null : fiatText(toMinor(row.fiat_minor)),
    merchant: accepted ? { id: row.merchant_id!.toString(), name: row.merchant_name ?? '' } : null,
    paymentDetails: accepted && row.kind === 'deposit' ? (row.merchant_payment_details ?? '') : null,
    bankDetails: row.bank_details,
    proofUploadId: row.proof_upload_id?.toString() ?? null,
    paymentReference: row.payment_reference,
    matchDeadlineMs: Number(row.match_deadline_ms),
    offerDeadlineMs: msOrNull(row.offer_deadline_ms),
    paymentDeadlineMs: msOrNull(row.payment_deadline_ms),
    paidAtMs,
    confirmDeadlineMs: row.kind === 'withdrawal' && row.status === 'paid' && paidAtMs !== null ? paidAtMs + C2C_CONFIRM_WINDOW_MS : null,
    appeal: row.appeal_by ? { by: row.appeal_by, reason: row.appeal_reason ?? '' } : null,
    failReason: row.fail_reason,
    resolution: row.resolution ? { outcome: row.resolution, note: row.resolution_note ?? '' } : null,
    closingEntryId: row.closing_entry_id?.toString() ?? null,
    createdAtMs: row.created_at.getTime(),
    endedAtMs: row.ended_at?.getTime() ?? null,
  };
}

export type C2cRequestView = ReturnType<typeof c2cRequestView>;

/** The order as a merchant or support sees it: with the user's public name (never a full contact). */
export function merchantRequestView(row: C2cRequestRow) {
  return {
    ...c2cRequestView(row),
    user: publicUserName({ id: row.user_id, username: row.username, nickname: row.nickname, email: row.email, phone: row.phone }),
  };
}

export type MerchantRequestView = ReturnType<typeof merchantRequestView>;

export async function readRequestRow(db: Queryable, requestId: bigint): Promise<C2cRequestRow | undefined> {
  const [row] = await db.query<C2cRequestRow>(`${C2C_SELECT} WHERE r.id = $1`, [requestId]);
  return row;
}
