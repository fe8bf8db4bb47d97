import { captureHoldPostings, mergePostings, placeHoldPostings, releaseHoldPostings, transferPostings } from '@keel/domain';
import type { Queryable } from './db.ts';
import { postEntry, toMinor } from './ledger.store.ts';

export interface HoldRow {
  id: bigint;
  account_id: bigint;
  amount_minor: string;
  status: 'open' | 'posted' | 'released';
  reference_type: string;
  reference_id: string;
}

export class HoldStateError extends Error {
  constructor(holdId: bigint, status: string) {
    super(`hold ${holdId} is ${status}, not open`);
    this.name = 'HoldStateError';
  }
}

async function assetOf(tx: Queryable, accountId: bigint): Promise<string> {
  const [row] = await tx.query<{ asset: string }>('SELECT asset FROM ledger_accounts WHERE id = $1', [accountId]);
  if (!row) throw new Error(`no ledger account ${accountId}`);
  return row.asset;
}

/**
 * Freezes money for something pending (a withdrawal, an escrow, a margin): an entry moving it from
 * available to frozen, and a hold row naming what it is for. One open hold per reference.
 */
export async function placeHold(
  tx: Queryable,
  input: {
    accountId: bigint;
    amountMinor: bigint;
    referenceType: string;
    referenceId: string;
    idempotencyKey?: string;
    /** The entry's reason; `hold.place` unless told. */
    reason?: string;
    /** Also pays these from the same available balance, in the same entry (a position's opening fee). */
    alsoPay?: readonly { toAccountId: bigint; amountMinor: bigint }[];
    /** The entry's memo (a VIP discount on the fee paid with it, ADR 0046). */
    memo?: string;
    at: Date;
  },
): Promise<{ holdId: bigint; placedEntryId: bigint; replayed: boolean }> {
  const asset = await assetOf(tx, input.accountId);
  const payments = (input.alsoPay ?? []).filter((payment) => payment.amountMinor !== 0n);
  if (payments.some((payment) => payment.amountMinor < 0n)) throw new RangeError('a payment with a hold is positive');
  const posted = await postEntry(tx, {
    reason: input.reason ?? 'hold.place',
    referenceType: input.referenceType,
    referenceId: input.referenceId,
    idempotencyKey: input.idempotencyKey,
    memo: input.memo,
    postings: mergePostings([
      ...placeHoldPostings(input.accountId, asset, input.amountMinor),
      ...payments.flatMap((payment) => transferPostings(input.accountId, payment.toAccountId, asset, payment.amountMinor)),
    ]),
    at: input.at,
  });
  if (posted.replayed) {
    const [hold] = await tx.query<{ id: bigint }>('SELECT id FROM ledger_holds WHERE placed_entry_id = $1', [posted.entryId]);
    return { holdId: hold!.id, placedEntryId: posted.entryId, replayed: true };
  }
  const [hold] = await tx.query<{ id: bigint }>(
    `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [input.accountId, input.amountMinor.toString(), input.referenceType, input.referenceId, posted.entryId, input.at],
  );
  return { holdId: hold!.id, placedEntryId: posted.entryId, replayed: false };
}

async function lockOpenHold(tx: Queryable, holdId: bigint): Promise<HoldRow> {
  const [hold] = await tx.query<HoldRow>('SELECT * FROM ledger_holds WHERE id = $1 FOR UPDATE', [holdId]);
  if (!hold) throw new Error(`no hold ${holdId}`);
  if (hold.status !== 'open') throw new HoldStateError(holdId, hold.status);
  return hold;
}

async function closeHold(tx: Queryable, holdId: bigint, status: 'posted' | 'released', entryId: bigint, at: Date) {
  await tx.query('UPDATE ledger_holds SET status = $2, closed_entry_id = $3, closed_at = $4 WHERE id = $1', [holdId, status, entryId, at]);
}

/** Gives the whole frozen amount back to the owner's available balance. */
export async function releaseHold(tx: Queryable, input: { holdId: bigint; reason?: string; at: Date }): Promise<bigint> {
  const hold = await lockOpenHold(tx, input.holdId);
  const asset = await assetOf(tx, hold.account_id);
  const { entryId } = await postEntry(tx, {
    reason: input.reason ?? 'hold.release',
    referenceType: hold.reference_type,
    referenceId: hold.reference_id,
    postings: releaseHoldPostings(hold.account_id, asset, toMinor(hold.amount_minor)),
    at: input.at,
  });
  await closeHold(tx, input.holdId, 'released', entryId, input.at);
  return entryId;
}

/**
 * Pays `amountMinor` of the frozen money to another account and gives any rest back to the owner,
 * in one entry; the hold is then posted.
 */
export function captureHold(
  tx: Queryable,
  input: { holdId: bigint; toAccountId: bigint; amountMinor: bigint; reason: string; at: Date },
): Promise<bigint> {
  return captureHoldSplit(tx, { holdId: input.holdId, payouts: [{ toAccountId: input.toAccountId, amountMinor: input.amountMinor }], reason: input.reason, at: input.at });
}

/**
 * Pays the frozen money out to several accounts (a withdrawal: the amount to the hot wallet, the
 * fee to the fee account) and gives any rest back to the owner, in one entry; the hold is then posted.
 */
export async function captureHoldSplit(
  tx: Queryable,
  input: { holdId: bigint; payouts: readonly { toAccountId: bigint; amountMinor: bigint }[]; reason: string; memo?: string; at: Date },
): Promise<bigint> {
  const hold = await lockOpenHold(tx, input.holdId);
  const held = toMinor(hold.amount_minor);
  const paid = input.payouts.reduce((sum, payout) => sum + payout.amountMinor, 0n);
  if (input.payouts.some((payout) => payout.amountMinor <= 0n) || paid > held) throw new RangeError(`capture of ${paid} from a hold of ${held}`);
  const asset = await assetOf(tx, hold.account_id);
  const rest = held - paid;
  const { entryId } = await postEntry(tx, {
    reason: input.reason,
    referenceType: hold.reference_type,
    referenceId: hold.reference_id,
    memo: input.memo,
    postings: mergePostings([
      ...input.payouts.flatMap((payout) => captureHoldPostings(hold.account_id, payout.toAccountId, asset, payout.amountMinor)),
      ...(rest > 0n ? releaseHoldPostings(hold.account_id, asset, rest) : []),
    ]),
    at: input.at,
  });
  await closeHold(tx, input.holdId, 'posted', entryId, input.at);
  return entryId;
}

/**
 * Takes part of an open hold (an escrow that many orders draw on): pays `payouts` out and returns
 * `returnMinor` to the owner's available balance, in one entry. The hold stays open with what is
 * left, or closes when nothing is (posted if anything was paid out, else released); a closed hold
 * keeps the amount it held last. Refuses to take more than the hold holds.
 */
export async function takeFromHold(
  tx: Queryable,
  input: {
    holdId: bigint;
    payouts?: readonly { toAccountId: bigint; amountMinor: bigint }[];
    returnMinor?: bigint;
    reason: string;
    memo?: string;
    at: Date;
  },
): Promise<{ entryId: bigint; remainingMinor: bigint }> {
  const hold = await lockOpenHold(tx, input.holdId);
  const held = toMinor(hold.amount_minor);
  const payouts = input.payouts ?? [];
  const returnMinor = input.returnMinor ?? 0n;
  const paid = payouts.reduce((sum, payout) => sum + payout.amountMinor, 0n);
  const taken = paid + returnMinor;
  if (payouts.some((payout) => payout.amountMinor <= 0n) || returnMinor < 0n || taken <= 0n || taken > held) {
    throw new RangeError(`taking ${taken} from a hold of ${held}`);
  }
  const asset = await assetOf(tx, hold.account_id);
  const { entryId } = await postEntry(tx, {
    reason: input.reason,
    referenceType: hold.reference_type,
    referenceId: hold.reference_id,
    memo: input.memo,
    postings: mergePostings([
      ...payouts.flatMap((payout) => captureHoldPostings(hold.account_id, payout.toAccountId, asset, payout.amountMinor)),
      ...(returnMinor > 0n ? releaseHoldPostings(hold.account_id, asset, returnMinor) : []),
    ]),
    at: input.at,
  });
  const remainingMinor = held - taken;
  if (remainingMinor === 0n) await closeHold(tx, input.holdId, paid > 0n ? 'posted' : 'released', entryId, input.at);
  else await tx.query('UPDATE ledger_holds SET amount_minor = $2 WHERE id = $1', [input.holdId, remainingMinor.toString()]);
  return { entryId, remainingMinor };
}

/** Freezes more of the owner's available balance into an open hold (an ad offered in a larger quantity). */
export async function addToHold(tx: Queryable, input: { holdId: bigint; amountMinor: bigint; reason: string; at: Date }): Promise<bigint> {
  const hold = await lockOpenHold(tx, input.holdId);
  const asset = await assetOf(tx, hold.account_id);
  const { entryId } = await postEntry(tx, {
    reason: input.reason,
    referenceType: hold.reference_type,
    referenceId: hold.reference_id,
    postings: placeHoldPostings(hold.account_id, asset, input.amountMinor),
    at: input.at,
  });
  await tx.query('UPDATE ledger_holds SET amount_minor = amount_minor + $2 WHERE id = $1', [input.holdId, input.amountMinor.toString()]);
  return entryId;
}
