/**
 * Invitation rewards (issue 20, ADR 0045): an inviter receives a published share of the trading
 * fees the people they invited paid, for a published number of days after each of them registered,
 * credited per invitee and UTC day once the day is over. One level only: the people an invitee
 * invites earn their own inviter (the invitee) a reward, never the invitee's inviter. Pure: days are
 * whole UTC days counted from 1970-01-01 (day 0), times are milliseconds since the epoch.
 */

export const UTC_DAY_MS = 86_400_000;

/**
 * The journal entry reasons whose postings to a `fees` account are trading fees, each paid by one
 * user of the entry (see `feePayerRule`):
 * - `swap`: the swap fee (in the asset received);
 * - `p2p.release`: the 0.1 % taken from the escrow on release, paid by the buyer (they receive less);
 * - `leverage.open`, `leverage.fill`: the opening fee of a leveraged or futures position (market
 *   order, filled limit order);
 * - `leverage.close`, `leverage.take_profit`, `leverage.stop_loss`: the closing fee.
 * Not counted: a withdrawal's network fee (`withdrawal.completed`), the fee of a transfer to another
 * user (`transfer.user`); a liquidation's fee goes to the insurance fund, not a fee account; short-
 * cycle contracts, earn, loans, the fund section and C2C charge no fee to a fee account.
 */
export const INVITE_TRADING_FEE_REASONS = [
  'swap',
  'p2p.release',
  'leverage.open',
  'leverage.fill',
  'leverage.close',
  'leverage.take_profit',
  'leverage.stop_loss',
] as const;

export type InviteTradingFeeReason = (typeof INVITE_TRADING_FEE_REASONS)[number];

/**
 * Who paid an entry's fee: the one user whose account the entry touches — or, for a P2P release,
 * which touches both traders, the buyer, the one whose account the entry credits.
 */
export const P2P_FEE_PAID_BY = 'buyer' as const;

/** The ledger reason of a reward entry. */
export const INVITE_REWARD_REASON = 'invite.reward';

/** The published rule's bounds: a share of 0 to 50 %, a period of 1 to 3,650 days. */
export const INVITE_SHARE_PERCENT_MAX = 50;
export const INVITE_PERIOD_DAYS_MAX = 3650;

/** The UTC day a moment falls on. */
export function utcDayOf(ms: number): number {
  return Math.floor(ms / UTC_DAY_MS);
}

/** When a UTC day starts. */
export function dayStartMs(day: number): number {
  return day * UTC_DAY_MS;
}

/** `2026-11-29` for a day number. */
export function dayText(day: number): string {
  return new Date(dayStartMs(day)).toISOString().slice(0, 10);
}

/** The day number of `2026-11-29`; throws on anything else. */
export function dayFromText(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw new RangeError(`not a day: ${text}`);
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms) || dayText(utcDayOf(ms)) !== text) throw new RangeError(`not a day: ${text}`);
  return utcDayOf(ms);
}

/** The last UTC day that is over at `nowMs` (yesterday). */
export function lastCompleteDay(nowMs: number): number {
  return utcDayOf(nowMs) - 1;
}

/** The rewarded period of one invitee: fees paid in [startMs, endMs) count, on the days firstDay … lastDay. */
export interface RewardWindow {
  startMs: number;
  endMs: number;
  firstDay: number;
  lastDay: number;
}

export function rewardWindow(registeredAtMs: number, periodDays: number): RewardWindow {
  if (!Number.isInteger(periodDays) || periodDays < 1 || periodDays > INVITE_PERIOD_DAYS_MAX) throw new RangeError(`period of ${periodDays} days`);
  const endMs = registeredAtMs + periodDays * UTC_DAY_MS;
  return { startMs: registeredAtMs, endMs, firstDay: utcDayOf(registeredAtMs), lastDay: utcDayOf(endMs - 1) };
}

/** The part of `day` inside the window: the fees of [fromMs, toMs) count for that day. */
export function dayPartOf(day: number, window: Pick<RewardWindow, 'startMs' | 'endMs'>): { fromMs: number; toMs: number } | null {
  const fromMs = Math.max(dayStartMs(day), window.startMs);
  const toMs = Math.min(dayStartMs(day + 1), window.endMs);
  return fromMs < toMs ? { fromMs, toMs } : null;
}

/**
 * The days one job run settles for an invitee whose next unsettled day is `nextDay`: from it to
 * the last complete day or the window's last day, whichever is first, at most `maxDays` of them
 * (a long downtime is caught up over several runs, oldest first). Null when none is due.
 */
export function daysDue(nextDay: number, lastDay: number, nowMs: number, maxDays: number): { fromDay: number; throughDay: number } | null {
  const through = Math.min(lastDay, lastCompleteDay(nowMs), nextDay + maxDays - 1);
  return through >= nextDay ? { fromDay: nextDay, throughDay: through } : null;
}

/** The inviter's reward for fees of `feeMinor`: the share, rounded down to the minor unit. */
export function inviteRewardMinor(feeMinor: bigint, sharePercent: number): bigint {
  if (feeMinor < 0n) throw new RangeError('a fee below zero');
  if (!Number.isInteger(sharePercent) || sharePercent < 0 || sharePercent > INVITE_SHARE_PERCENT_MAX) throw new RangeError(`share of ${sharePercent} %`);
  return (feeMinor * BigInt(sharePercent)) / 100n;
}

/** One fee account's fees of an invitee on a day, and the reward they give. */
export interface DayFee {
  feeAccountId: bigint;
  asset: string;
  feeMinor: bigint;
}

/**
 * A day's reward entry for one invitee: from each fee account that received their fees, the share
 * of those fees to the inviter's coin account in the same asset. Fee accounts whose share rounds to
 * nothing give no posting; null when nothing is paid at all (the day is recorded without an entry).
 */
export function inviteRewardPostings(
  fees: readonly DayFee[],
  sharePercent: number,
  coinAccountOf: (asset: string) => bigint,
): { accountId: bigint; asset: string; bucket: 'available'; amountMinor: bigint }[] | null {
  const postings: { accountId: bigint; asset: string; bucket: 'available'; amountMinor: bigint }[] = [];
  for (const fee of fees) {
    const reward = inviteRewardMinor(fee.feeMinor, sharePercent);
    if (reward === 0n) continue;
    postings.push({ accountId: fee.feeAccountId, asset: fee.asset, bucket: 'available', amountMinor: -reward });
    postings.push({ accountId: coinAccountOf(fee.asset), asset: fee.asset, bucket: 'available', amountMinor: reward });
  }
  return postings.length > 0 ? postings : null;
}
