import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { earnProductSchema } from '../earn/earn.contracts.ts';
import { leverageOverviewSchema } from '../leverage/leverage.contracts.ts';
import { loanProductSchema, loansOverviewSchema } from '../loans/loans.contracts.ts';
import { optionsOverviewSchema } from '../options/options.contracts.ts';
import { channelViewSchema, withdrawalRulesSchema } from '../wallet/wallet.contracts.ts';

/**
 * The public transparency page (issue 22): the platform's own accounts that users' money meets — the
 * houses of contracts and of leveraged/futures positions, the insurance fund, the fee accounts, the
 * earn and lending treasuries — with their ledger balances and their results by day; the yield the
 * earn treasury paid; and every published rule with its value as the server enforces it (built by
 * the same functions the use cases read). Public, no token. Proof-of-liabilities snapshots are the
 * `proof.*` calls.
 */

export const houseAccountKinds = ['options_house', 'leverage_house', 'insurance_fund', 'fees', 'earn_treasury', 'lending_treasury'] as const;

export const houseAccountSchema = z.object({
  kind: z.enum(houseAccountKinds),
  label: z.string().describe('which fee account (e.g. "leverage", "swap", "p2p"); empty for the others'),
  asset: z.string(),
  accountId: z.string().describe('the ledger account'),
  balance: z.string(),
  days: z
    .array(z.object({ day: z.string().describe('YYYY-MM-DD, UTC'), change: z.string().describe('signed: what the day’s entries moved in or out') }))
    .describe('the last 30 UTC days with any entry, newest first'),
});

export const transparencySchema = z.object({
  generatedAtMs: z.number().int(),
  houses: z.array(houseAccountSchema),
  earnYieldPaid: z
    .array(z.object({ asset: z.string(), total: z.string(), last30Days: z.string() }))
    .describe('interest the earn treasury paid to subscriptions, by asset'),
  rules: z.object({
    swap: z.object({ spreadPercent: z.string(), feePercent: z.string(), quoteValidSeconds: z.number().int() }),
    p2p: z.object({ releaseFeePercent: z.string().describe('of the quantity, paid by the seller when escrow is released') }),
    wallet: z.object({ channels: z.array(channelViewSchema), rules: withdrawalRulesSchema }),
    options: optionsOverviewSchema.pick({ asset: true, products: true, symbols: true, rule: true }),
    leverage: leverageOverviewSchema.pick({ asset: true, products: true, symbols: true, rules: true }),
    earn: z.object({ products: z.array(earnProductSchema.omit({ userActive: true })) }),
    loans: z.object({ products: z.array(loanProductSchema), policy: loansOverviewSchema.shape.policy }),
  }),
});
export type Transparency = z.infer<typeof transparencySchema>;

export const getTransparencyContract = defineContract({
  id: 'transparency',
  method: 'GET',
  path: '/home/transparency',
  summary:
    'The platform’s house accounts with their ledger balances and results by day, the earn yield paid, and every published rule with the value the server enforces. Public.',
  caller: 'public',
  data: transparencySchema,
  errors: [],
});
