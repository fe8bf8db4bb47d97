import { createSwapQuoteContract, executeSwapContract } from '@keel/contracts';
import { handler } from '../route.ts';
import { createSwapQuote } from '../../use-cases/swap/create-swap-quote.ts';
import { executeSwap, executedSwapAnswer } from '../../use-cases/swap/execute-swap.ts';

export const swapRoutes = [
  handler(createSwapQuoteContract, ({ session, body, deps }) => createSwapQuote(deps, { userId: session.user.id, ...body })),
  handler(executeSwapContract, async ({ session, body, idempotency, deps }) =>
    executedSwapAnswer(await executeSwap(deps, { userId: session.user.id, quoteId: BigInt(body.quoteId) }, idempotency)),
  ),
];
