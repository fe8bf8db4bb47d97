import { parseAmount, transferPostings } from '@keel/domain';
import type { Db } from '../../../apps/server/src/persistence/db.ts';
import { placeHold } from '../../../apps/server/src/persistence/ledger-holds.store.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry, type UserAccountKind } from '../../../apps/server/src/persistence/ledger.store.ts';

const scales: Record<string, number> = { USDT: 6, BTC: 8, ETH: 18 };

/**
 * Funds a user's account the way the demo seed does: one balanced journal entry from the platform
 * treasury, reason `demo.fund`, so the balance and the records come from the real ledger.
 */
export interface Funds {
  kind?: UserAccountKind;
  asset: 'USDT' | 'BTC' | 'ETH';
  amount: string;
}

export async function fundUser(db: Db, input: Funds & { userId: string }) {
  const amountMinor = parseAmount(input.amount, scales[input.asset]!);
  await db.transaction(async (tx) => {
    const treasury = await ensurePlatformAccount(tx, 'treasury', input.asset, { allowNegative: true });
    const account = await ensureUserAccount(tx, BigInt(input.userId), input.kind ?? 'coin', input.asset);
    await postEntry(tx, {
      reason: 'demo.fund',
      referenceType: 'user',
      referenceId: input.userId,
      memo: 'Browser test funds.',
      postings: transferPostings(treasury, account, input.asset, amountMinor),
      at: new Date(),
    });
  });
}

/** Freezes part of a user's balance with a hold, as a pending withdrawal or escrow would. */
export async function freezeFunds(db: Db, input: Funds & { userId: string }) {
  const amountMinor = parseAmount(input.amount, scales[input.asset]!);
  await db.transaction(async (tx) => {
    const account = await ensureUserAccount(tx, BigInt(input.userId), input.kind ?? 'coin', input.asset);
    await placeHold(tx, { accountId: account, amountMinor, referenceType: 'browser_test', referenceId: crypto.randomUUID(), at: new Date() });
  });
}
