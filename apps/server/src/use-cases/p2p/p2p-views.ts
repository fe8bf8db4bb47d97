import { AppError } from '@keel/contracts';
import { formatAmount, p2pReleaseSplitWithVip, p2pStatusCodes, type P2pOrderStatus, publicUserName, type VipLevel, vipTermsOf } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';

/** USDT is the traded asset (scale 6); fiat prices and totals are kept in hundredths. */
export const P2P_ASSET = 'USDT';
export const P2P_SCALE = 6;
export const FIAT_SCALE = 2;

export type P2pAdSide = 'sell' | 'buy';

export interface AdRow {
  id: bigint;
  /** The seller of a sell ad, the buyer of a buy ad. */
  owner_id: bigint;
  side: P2pAdSide;
  asset: 'USDT';
  fiat: string;
  price_fiat_minor: string;
  min_minor: string;
  max_minor: string;
  total_minor: string;
  remaining_minor: string;
  payment_window_minutes: number;
  contact: string;
  remark: string;
  status: 'open' | 'closed';
  /** The escrow of a sell ad; a buy ad holds nothing (its orders hold the seller's coins). */
  hold_id: bigint | null;
  created_at: Date;
}

export interface OrderRow {
  id: bigint;
  order_no: string;
  ad_id: bigint;
  buyer_id: bigint;
  seller_id: bigint;
  asset: 'USDT';
  fiat: string;
  quantity_minor: string;
  price_fiat_minor: string;
  total_fiat_minor: string;
  remark: string;
  status: P2pOrderStatus;
  payment_deadline: Date;
  paid_at: Date | null;
  ended_at: Date | null;
  cancel_reason: 'buyer' | 'expired' | null;
  closing_entry_id: bigint | null;
  created_at: Date;
  /** The order's own escrow (an order on a buy ad); null on a sell ad, whose hold is the ad's. */
  hold_id: bigint | null;
  ad_side: P2pAdSide;
  /** The seller's payment details of an order on a buy ad. */
  seller_contact: string | null;
}

type NameColumns = { username: string | null; email: string | null; phone: string | null; nickname: string | null };
/** How a trader is named to the other side and in the public ad list: never a full contact (ADR 0023). */
const nameOf = (id: bigint, row: NameColumns) =>
  publicUserName({ id, nickname: row.nickname, username: row.username, email: row.email, phone: row.phone });

export const AD_SELECT = `SELECT a.*, u.username, u.email, u.phone, u.nickname FROM p2p_ads a JOIN users u ON u.id = a.owner_id`;

export function adView(row: AdRow & NameColumns, viewerId: bigint) {
  return {
    id: row.id.toString(),
    side: row.side,
    ownerId: row.owner_id.toString(),
    ownerName: nameOf(row.owner_id, row),
    asset: row.asset,
    fiat: row.fiat,
    price: formatAmount(toMinor(row.price_fiat_minor), FIAT_SCALE),
    min: formatAmount(toMinor(row.min_minor), P2P_SCALE),
    max: formatAmount(toMinor(row.max_minor), P2P_SCALE),
    total: formatAmount(toMinor(row.total_minor), P2P_SCALE),
    remaining: formatAmount(toMinor(row.remaining_minor), P2P_SCALE),
    paymentWindowMinutes: row.payment_window_minutes,
    contact: row.contact,
    remark: row.remark,
    status: row.status,
    mine: row.owner_id === viewerId,
    createdAt: row.created_at.toISOString(),
  };
}

export type AdView = ReturnType<typeof adView>;

export async function findAdView(db: Queryable, adId: bigint, viewerId: bigint) {
  const [row] = await db.query<AdRow & NameColumns>(`${AD_SELECT} WHERE a.id = $1`, [adId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return adView(row, viewerId);
}

// The seller's payment details: an order on a buy ad carries the seller's own; on a sell ad they are
// the ad's. The buyer's contact is the buy ad's.
export const ORDER_SELECT = `SELECT o.*, COALESCE(o.seller_contact, a.contact) AS seller_contact,
    CASE WHEN o.ad_side = 'buy' THEN a.contact END AS buyer_contact,
    b.username AS b_username, b.email AS b_email, b.phone AS b_phone, b.nickname AS b_nickname,
    s.username AS s_username, s.email AS s_email, s.phone AS s_phone, s.nickname AS s_nickname,
    COALESCE(o.release_vip_level, (SELECT v.level FROM vip_levels v WHERE v.user_id = o.buyer_id), 0) AS fee_vip_level,
    o.release_vip_discount_bps
  FROM p2p_orders o JOIN p2p_ads a ON a.id = o.ad_id JOIN users b ON b.id = o.buyer_id JOIN users s ON s.id = o.seller_id`;

interface OrderViewRow extends Omit<OrderRow, 'seller_contact'> {
  seller_contact: string;
  buyer_contact: string | null;
  b_username: string | null;
  b_email: string | null;
  b_phone: string | null;
  b_nickname: string | null;
  s_username: string | null;
  s_email: string | null;
  s_phone: string | null;
  s_nickname: string | null;
  /** The buyer's VIP level the fee uses: the one recorded at release, else the buyer's level now. */
  fee_vip_level: number;
  release_vip_level: number | null;
  /** The discount charged at release (null before the release: the table in force applies). */
  release_vip_discount_bps: number | null;
}

export function orderView(row: OrderViewRow, viewerId: bigint, vipLevels: readonly VipLevel[]) {
  const quantityMinor = toMinor(row.quantity_minor);
  // Released: the level and discount charged then. Not yet: what the buyer's level gives now.
  const vip =
    row.release_vip_level !== null && row.release_vip_discount_bps !== null
      ? { level: row.release_vip_level, feeDiscountBps: row.release_vip_discount_bps, extraDailyWithdrawals: 0 }
      : vipTermsOf(Number(row.fee_vip_level ?? 0), vipLevels);
  const split = p2pReleaseSplitWithVip(quantityMinor, vip);
  return {
    id: row.id.toString(),
    orderNo: row.order_no,
    adId: row.ad_id.toString(),
    adSide: row.ad_side,
    role: row.buyer_id === viewerId ? ('buyer' as const) : ('seller' as const),
    buyerName: nameOf(row.buyer_id, { username: row.b_username, email: row.b_email, phone: row.b_phone, nickname: row.b_nickname }),
    sellerName: nameOf(row.seller_id, { username: row.s_username, email: row.s_email, phone: row.s_phone, nickname: row.s_nickname }),
    asset: row.asset,
    fiat: row.fiat,
    quantity: formatAmount(quantityMinor, P2P_SCALE),
    price: formatAmount(toMinor(row.price_fiat_minor), FIAT_SCALE),
    total: formatAmount(toMinor(row.total_fiat_minor), FIAT_SCALE),
    fee: formatAmount(split.feeMinor, P2P_SCALE),
    feeBeforeDiscount: formatAmount(split.feeBeforeDiscountMinor, P2P_SCALE),
    vipLevel: split.level,
    vipDiscountBps: split.discountBps,
    buyerReceives: formatAmount(split.toBuyerMinor, P2P_SCALE),
    remark: row.remark,
    status: row.status,
    statusCode: p2pStatusCodes[row.status],
    cancelReason: row.cancel_reason,
    paymentDeadline: row.payment_deadline.toISOString(),
    paidAt: row.paid_at?.toISOString() ?? null,
    endedAt: row.ended_at?.toISOString() ?? null,
    sellerContact: row.seller_contact,
    buyerContact: row.buyer_contact,
    closingEntryId: row.closing_entry_id?.toString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

export type OrderView = ReturnType<typeof orderView>;

/** An order the viewer is a party to; anyone else's is "not found", never "forbidden". */
export async function findOrderView(db: Queryable, orderId: bigint, viewerId: bigint, vipLevels: readonly VipLevel[]) {
  const [row] = await db.query<OrderViewRow>(`${ORDER_SELECT} WHERE o.id = $1 AND (o.buyer_id = $2 OR o.seller_id = $2)`, [orderId, viewerId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return orderView(row, viewerId, vipLevels);
}

export async function listOrdersOf(
  db: Queryable,
  input: { userId: bigint; scope: 'in_progress' | 'completed'; page: number; pageSize: number },
  vipLevels: readonly VipLevel[],
) {
  const open = `o.status IN ('awaiting_payment', 'paid', 'appealing')`;
  const where = `WHERE (o.buyer_id = $1 OR o.seller_id = $1) AND ${input.scope === 'in_progress' ? open : `NOT ${open}`}`;
  const rows = await db.query<OrderViewRow>(`${ORDER_SELECT} ${where} ORDER BY o.id DESC LIMIT $2 OFFSET $3`, [
    input.userId,
    input.pageSize,
    (input.page - 1) * input.pageSize,
  ]);
  const [count] = await db.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM p2p_orders o ${where}`, [input.userId]);
  return { items: rows.map((row) => orderView(row, input.userId, vipLevels)), total: Number(count!.total) };
}

export async function listAds(db: Queryable, input: { viewerId: bigint; side: P2pAdSide; fiat?: string; mine: boolean; page: number; pageSize: number }) {
  // Your own ads of every side; the market's of one side, best price first for the other side:
  // the cheapest sell ads for a buyer, the highest buy ads for a seller.
  const where = input.mine
    ? 'WHERE a.owner_id = $1 AND ($2::text IS NULL OR a.fiat = $2) AND $3::text IS NOT NULL'
    : `WHERE a.status = 'open' AND a.side = $3 AND a.remaining_minor > 0 AND ($2::text IS NULL OR a.fiat = $2) AND $1::bigint IS NOT NULL`;
  const order = input.mine ? 'a.id DESC' : input.side === 'sell' ? 'a.price_fiat_minor, a.id' : 'a.price_fiat_minor DESC, a.id';
  const params = [input.viewerId, input.fiat ?? null, input.side];
  const rows = await db.query<AdRow & NameColumns>(`${AD_SELECT} ${where} ORDER BY ${order} LIMIT $4 OFFSET $5`, [
    ...params,
    input.pageSize,
    (input.page - 1) * input.pageSize,
  ]);
  const [count] = await db.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM p2p_ads a ${where}`, params);
  return { items: rows.map((row) => adView(row, input.viewerId)), total: Number(count!.total) };
}
