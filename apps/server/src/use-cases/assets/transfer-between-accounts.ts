import { AppError, parameterErrorField } from '@keel/contracts';
import { formatAmount, LedgerError, transferPostings } from '@keel/domain';
import { parseUserAmount } from '../amount-input.ts';
import type { Deps } from '../../deps.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { type BatchedEntry, LedgerQueueFullError } from '../../persistence/ledger-batcher.ts';
import { ensureUserAccount, type UserAccountKind } from '../../persistence/ledger.store.ts';
import { assetScales, type BalanceView } from './account-balances.ts';

/**
 * Moves an asset between two of one user's own account types. Free (decisions page: the 0.10 %
 * minimum fee applies only to transfers to another user). One journal entry, reason
 * `transfer.internal`, both accounts locked in id order, posted through the Db's batcher so
 * concurrent transfers share one commit. Through the API the answer commits in that batch with
 * the entry (`idempotency`, ADR 0019).
 */
export async function transferBetweenAccounts(
  deps: Deps,
  input: {
    userId: bigint;
    fromAccount: UserAccountKind;
    toAccount: UserAccountKind;
    asset: BalanceView['asset'];
    amount: string;
    /** The request's Idempotency-Key: also the entry's, so a retry after an unknown commit outcome posts once. */
    requestKey?: string;
  },
  idempotency?: IdempotentRequest<{ entryId: string; from: BalanceView; to: BalanceView }>,
): Promise<{ entryId: bigint; from: BalanceView; to: BalanceView }> {
  const scale = (await assetScales(deps.db)).get(input.asset);
  if (scale === undefined) throw new AppError('PARAMETER_ERROR', { fields: [parameterErrorField('body.asset', 'unknownAsset')] });
  const amountMinor = parseUserAmount(input.amount, scale);
  // The accounts exist before the entry is queued: creating an empty one is harmless (every
  // account type already shows, at zero) and keeps the batched work to the entry itself.
  const from = await ensureUserAccount(deps.db, input.userId, input.fromAccount, input.asset);
  const to = await ensureUserAccount(deps.db, input.userId, input.toAccount, input.asset);
  // The balances right after this entry inside its batch, as the single transaction used to read them.
  const view = (posted: BatchedEntry, accountId: bigint, kind: UserAccountKind): BalanceView => {
    const balance = posted.balances.get(accountId)!;
    return { kind, asset: input.asset, available: formatAmount(balance.availableMinor, scale), frozen: formatAmount(balance.frozenMinor, scale) };
  };
  let posted: BatchedEntry;
  try {
    // Through the group-commit batcher (ADR 0010): answered once the batch holding it has committed.
    posted = await deps.ledger.post(
      {
        reason: 'transfer.internal',
        referenceType: 'user',
        referenceId: input.userId.toString(),
        // The request layer frees its key when the outcome is unknown (a 500); the entry-level key
        // still makes the client's retry a replay instead of a second transfer.
        ...(input.requestKey ? { idempotencyKey: `transfer.internal:${input.userId}:${input.requestKey}` } : {}),
        postings: transferPostings(from, to, input.asset, amountMinor),
        at: deps.now(),
      },
      idempotency
        ? {
            beforeCommit: (tx, entry) =>
              idempotency.answerInTransaction(tx, { entryId: entry.entryId.toString(), from: view(entry, from, input.fromAccount), to: view(entry, to, input.toAccount) }),
          }
        : {},
    );
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    // A full queue is back-pressure, not a failure: the client may retry after a moment.
    if (error instanceof LedgerQueueFullError) throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: 1 });
    throw error;
  }
  return { entryId: posted.entryId, from: view(posted, from, input.fromAccount), to: view(posted, to, input.toAccount) };
}
