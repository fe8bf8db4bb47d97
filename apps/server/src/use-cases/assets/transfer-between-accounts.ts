import { AppError } from '@keel/contracts';
import { AmountError, formatAmount, LedgerError, parsePositiveAmount, transferPostings } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { ensureUserAccount, postEntry, readAccount, type UserAccountKind } from '../../persistence/ledger.store.ts';
import { assetScales, type BalanceView } from './account-balances.ts';

/**
 * Moves an asset between two of one user's own account types. Free (decisions page: the 0.10 %
 * minimum fee applies only to transfers to another user). One journal entry, reason
 * `transfer.internal`, both accounts locked in id order.
 */
export async function transferBetweenAccounts(
  deps: Deps,
  input: { userId: bigint; fromAccount: UserAccountKind; toAccount: UserAccountKind; asset: BalanceView['asset']; amount: string },
): Promise<{ entryId: bigint; from: BalanceView; to: BalanceView }> {
  const scale = (await assetScales(deps.db)).get(input.asset);
  if (scale === undefined) throw new AppError('PARAMETER_ERROR', { fields: [{ field: 'body.asset', message: 'unknown asset' }] });
  let amountMinor: bigint;
  try {
    amountMinor = parsePositiveAmount(input.amount, scale);
  } catch (error) {
    if (error instanceof AmountError) throw new AppError('WRONG_AMOUNT', { problem: error.problem, scale });
    throw error;
  }
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const from = await ensureUserAccount(tx, input.userId, input.fromAccount, input.asset);
      const to = await ensureUserAccount(tx, input.userId, input.toAccount, input.asset);
      const { entryId } = await postEntry(tx, {
        reason: 'transfer.internal',
        referenceType: 'user',
        referenceId: input.userId.toString(),
        postings: transferPostings(from, to, input.asset, amountMinor),
        at: now,
      });
      const view = async (accountId: bigint, kind: UserAccountKind): Promise<BalanceView> => {
        const account = (await readAccount(tx, accountId))!;
        return { kind, asset: input.asset, available: formatAmount(account.availableMinor, scale), frozen: formatAmount(account.frozenMinor, scale) };
      };
      return { entryId, from: await view(from, input.fromAccount), to: await view(to, input.toAccount) };
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
}
