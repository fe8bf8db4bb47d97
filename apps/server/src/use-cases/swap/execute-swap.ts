import { AppError, type SwapQuote } from '@keel/contracts';
import { discountMemo, formatAmount, LedgerError, type Posting } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry, readAccount, type UserAccountKind } from '../../persistence/ledger.store.ts';
import { lockSwapQuoteOfUser, markSwapQuoteExecuted, type SwapQuoteRow } from '../../persistence/swap-quotes.repository.ts';
import { assetScales, type BalanceView } from '../assets/account-balances.ts';
import { createSwapQuote } from './create-swap-quote.ts';
import { swapQuoteView } from './swap-quote.view.ts';

export interface ExecutedSwap {
  entryId: bigint;
  quote: SwapQuote;
  received: string;
  from: BalanceView;
  to: BalanceView;
}

/** An executed swap as the API answers it (the entry id as a decimal string). */
export type ExecutedSwapAnswer = Omit<ExecutedSwap, 'entryId'> & { entryId: string };

export const executedSwapAnswer = (swap: ExecutedSwap): ExecutedSwapAnswer => ({ ...swap, entryId: swap.entryId.toString() });

/**
 * The journal entry of a swap: the user gives `amount` of one asset to the treasury and receives
 * the gross receipt less the fee from it; the fee goes to the fees account. Balanced per asset:
 * from-asset −amount +amount; to-asset −gross +receive +fee.
 */
function swapPostings(
  accounts: { userFrom: bigint; userTo: bigint; treasuryFrom: bigint; treasuryTo: bigint; feesTo: bigint },
  quote: SwapQuoteRow,
): Posting[] {
  const postings: Posting[] = [
    { accountId: accounts.userFrom, asset: quote.fromAsset, bucket: 'available', amountMinor: -quote.amountMinor },
    { accountId: accounts.treasuryFrom, asset: quote.fromAsset, bucket: 'available', amountMinor: quote.amountMinor },
    { accountId: accounts.treasuryTo, asset: quote.toAsset, bucket: 'available', amountMinor: -quote.grossReceiveMinor },
    { accountId: accounts.userTo, asset: quote.toAsset, bucket: 'available', amountMinor: quote.receiveMinor },
  ];
  if (quote.feeMinor > 0n) postings.push({ accountId: accounts.feesTo, asset: quote.toAsset, bucket: 'available', amountMinor: quote.feeMinor });
  return postings;
}

/**
 * The entry's memo: what was given and received and, with a VIP discount, the fee before it, the
 * discount and the fee charged (ADR 0046), so the journal itself shows the discount.
 */
export function swapMemo(quote: SwapQuoteRow, fromScale: number, toScale: number): string {
  const base = `${formatAmount(quote.amountMinor, fromScale)} ${quote.fromAsset} → ${formatAmount(quote.receiveMinor, toScale)} ${quote.toAsset}`;
  const discount = discountMemo(
    {
      feeBeforeDiscountMinor: quote.feeBeforeDiscountMinor,
      discountBps: quote.vipDiscountBps,
      discountMinor: quote.feeBeforeDiscountMinor - quote.feeMinor,
      feeMinor: quote.feeMinor,
      level: quote.vipLevel,
    },
    (minor) => `${formatAmount(minor, toScale)} ${quote.toAsset}`,
  );
  return discount ? `${base} · ${discount}` : base;
}

type Outcome = { kind: 'executed'; swap: ExecutedSwap } | { kind: 'stale'; quote: SwapQuoteRow };

/**
 * Executes a quote at its rate, once. The quote row is locked first, then the accounts (in id
 * order, by postEntry); the entry's idempotency key is the quote's id, so even two requests under
 * different request keys cannot execute one quote twice. A quote that has expired or was already
 * used is refused with a fresh quote for the same swap (decisions page: "execution after expiry is
 * refused with a fresh quote offered"). Through the API the answer commits with the entry
 * (`idempotency`, ADR 0019), so a retry after a crash replays it rather than find the quote used.
 */
export async function executeSwap(
  deps: Deps,
  input: { userId: bigint; quoteId: bigint },
  idempotency?: IdempotentRequest<ExecutedSwapAnswer>,
): Promise<ExecutedSwap> {
  const scales = await assetScales(deps.db);
  const now = deps.now();
  let outcome: Outcome;
  try {
    outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
      const quote = await lockSwapQuoteOfUser(tx, input.quoteId, input.userId);
      if (!quote) throw new AppError('RECORD_NOT_FOUND');
      if (quote.executedEntryId !== null || now.getTime() >= quote.expiresAt.getTime()) return { kind: 'stale', quote };

      const accounts = {
        userFrom: await ensureUserAccount(tx, input.userId, quote.accountKind, quote.fromAsset),
        userTo: await ensureUserAccount(tx, input.userId, quote.accountKind, quote.toAsset),
        treasuryFrom: await ensurePlatformAccount(tx, 'treasury', quote.fromAsset, { allowNegative: true }),
        treasuryTo: await ensurePlatformAccount(tx, 'treasury', quote.toAsset, { allowNegative: true }),
        feesTo: await ensurePlatformAccount(tx, 'fees', quote.toAsset),
      };
      const fromScale = scales.get(quote.fromAsset)!;
      const toScale = scales.get(quote.toAsset)!;
      const { entryId } = await postEntry(tx, {
        reason: 'swap',
        referenceType: 'swap_quote',
        referenceId: quote.id.toString(),
        idempotencyKey: `swap_quote:${quote.id}`,
        memo: swapMemo(quote, fromScale, toScale),
        postings: swapPostings(accounts, quote),
        at: now,
      });
      await markSwapQuoteExecuted(tx, quote.id, entryId, now);
      const view = async (accountId: bigint, asset: string, scale: number): Promise<BalanceView> => {
        const account = (await readAccount(tx, accountId))!;
        return {
          kind: quote.accountKind as UserAccountKind,
          asset: asset as BalanceView['asset'],
          available: formatAmount(account.availableMinor, scale),
          frozen: formatAmount(account.frozenMinor, scale),
        };
      };
      const swap: ExecutedSwap = {
        entryId,
        quote: swapQuoteView({ ...quote, executedEntryId: entryId, executedAt: now }, scales),
        received: formatAmount(quote.receiveMinor, toScale),
        from: await view(accounts.userFrom, quote.fromAsset, fromScale),
        to: await view(accounts.userTo, quote.toAsset, toScale),
      };
      await idempotency?.answerInTransaction(tx, executedSwapAnswer(swap));
      return { kind: 'executed', swap };
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
  if (outcome.kind === 'executed') return outcome.swap;

  const stale = outcome.quote;
  const freshQuote = await createSwapQuote(deps, {
    userId: input.userId,
    account: stale.accountKind,
    fromAsset: stale.fromAsset,
    toAsset: stale.toAsset,
    amount: formatAmount(stale.amountMinor, scales.get(stale.fromAsset)!),
  });
  throw new AppError('QUOTE_EXPIRED', { freshQuote });
}
