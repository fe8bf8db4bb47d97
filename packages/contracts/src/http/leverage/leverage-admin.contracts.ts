import { z } from 'zod';
import { idSchema, pageQuerySchema } from '../common.ts';
import { defineContract } from '../contract.ts';
import { marketSymbolSchema } from '../market/market.contracts.ts';
import { leverageProductSchema, markPriceSchema, positionSchema, positionSideSchema, positionStatuses } from './leverage.contracts.ts';

/**
 * What staff see of leveraged and futures positions (issue 16): every user's positions with their
 * events and ticks, the house's open exposure per market and side against the published limit,
 * and the insurance fund with its journal entries. Read only: no staff call sets a price, a mark
 * price, a tick, a trigger, a liquidation, a PnL, a margin or a balance
 * (test/integration/options/no-staff-outcome-routes.test.ts). The roles follow the contracts'
 * staff reads: the positions, like the orders, for admin, finance and support; the house's money
 * (exposure, insurance fund), like the options house, for admin and finance.
 */
export const leverageStaffPositionRoles = ['admin', 'finance', 'support'] as const;
export const leverageStaffHouseRoles = ['admin', 'finance'] as const;

const usdtText = z.string().describe('USDT, decimal string');
const signedUsdtText = z.string().describe('USDT, signed decimal string');

export const staffPositionSchema = positionSchema.extend({
  userId: idSchema,
  userName: z.string().describe('how the user is named to anyone else (publicUserName: contacts masked)'),
});

export const listStaffPositionsContract = defineContract({
  id: 'admin.leverage.positions',
  method: 'GET',
  path: '/home/admin/leverage/positions',
  summary: 'Leveraged and futures positions of all users, newest first, with their latest events and ticks (read only).',
  caller: 'staff',
  staffRoles: leverageStaffPositionRoles,
  query: pageQuerySchema.extend({
    status: z.enum(positionStatuses).optional(),
    product: leverageProductSchema.optional(),
    symbol: marketSymbolSchema.optional(),
    userId: idSchema.optional(),
  }),
  data: z.object({
    items: z.array(staffPositionSchema.describe('`events`: the last few; the detail has all')),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    marks: z.array(markPriceSchema).describe('the mark price of each market of the listed open positions'),
  }),
  errors: [],
});

export const getStaffPositionContract = defineContract({
  id: 'admin.leverage.position',
  method: 'GET',
  path: '/home/admin/leverage/positions/:positionId',
  summary: 'One position of any user with every event, its ticks and journal entries, and, while open, its market’s mark price (read only).',
  caller: 'staff',
  staffRoles: leverageStaffPositionRoles,
  params: z.object({ positionId: idSchema }),
  data: staffPositionSchema.extend({ mark: markPriceSchema.nullable().describe('open positions: the mark price now; otherwise null') }),
  errors: ['RECORD_NOT_FOUND'],
});

export const leverageExposureSchema = z.object({
  asset: z.literal('USDT'),
  limit: usdtText.describe('the published limit of the house’s open notional per market and side (LEVERAGE_EXPOSURE_LIMIT_USDT)'),
  markets: z
    .array(
      z.object({
        symbol: marketSymbolSchema,
        side: positionSideSchema,
        exposure: usdtText.describe('the house’s open notional, as the limit is checked against it (leverage_exposures)'),
        remaining: signedUsdtText.describe('limit − exposure; negative only if the limit was lowered below what is open'),
        usedPercent: z.string().describe('exposure ÷ limit, percent, two decimals rounded down'),
        openPositions: z.number().int(),
        openNotional: usdtText.describe('summed from the open positions’ entry notionals; equals `exposure`'),
        openMargin: usdtText.describe('the margin held for the open positions'),
      }),
    )
    .describe('every market and side that is traded or has had positions, by symbol, long before short'),
  totals: z.object({ exposure: usdtText, openPositions: z.number().int(), openMargin: usdtText }),
});

export const getLeverageExposureContract = defineContract({
  id: 'admin.leverage.exposure',
  method: 'GET',
  path: '/home/admin/leverage/exposure',
  summary: 'The house’s open exposure per market and side against the published limit, with the open positions and their margin (read only).',
  caller: 'staff',
  staffRoles: leverageStaffHouseRoles,
  data: leverageExposureSchema,
  errors: [],
});

export const insuranceFundEntrySchema = z.object({
  entryId: idSchema,
  reason: z.string().describe('the journal entry’s reason, e.g. leverage.liquidation'),
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable().describe('for leverage_position: the position’s id'),
  positionNo: z.string().nullable(),
  amount: signedUsdtText.describe('the posting on the insurance fund: positive in (a liquidation fee), negative out (a loss beyond a margin)'),
  createdAt: z.string(),
});

export const leverageInsuranceFundSchema = z.object({
  asset: z.literal('USDT'),
  insuranceFund: z.object({
    balance: signedUsdtText.describe('the ledger account insurance_fund'),
    received: usdtText.describe('liquidation fees received, summed from the positions’ events'),
    paid: usdtText.describe('losses beyond positions’ margins it bore, summed from the positions’ events'),
    fromEvents: signedUsdtText.describe('received − paid; equals `balance`'),
    liquidations: z.number().int(),
  }),
  house: z.object({ balance: signedUsdtText.describe('the ledger account leverage_house: users’ losses in, their profits, funding and interest out or in') }),
  fees: z.object({ balance: usdtText.describe('the ledger account fees/leverage: trading fees of positions') }),
  entries: z.object({
    items: z.array(insuranceFundEntrySchema).describe('newest first'),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
});

export const getLeverageInsuranceFundContract = defineContract({
  id: 'admin.leverage.insurance',
  method: 'GET',
  path: '/home/admin/leverage/insurance-fund',
  summary: 'The insurance fund’s balance and its journal entries (paged), with the leverage house and fee accounts’ balances (read only).',
  caller: 'staff',
  staffRoles: leverageStaffHouseRoles,
  query: pageQuerySchema,
  data: leverageInsuranceFundSchema,
  errors: [],
});

export type StaffLeveragePosition = z.infer<typeof staffPositionSchema>;
export type LeverageExposure = z.infer<typeof leverageExposureSchema>;
export type LeverageInsuranceFund = z.infer<typeof leverageInsuranceFundSchema>;
export type InsuranceFundEntry = z.infer<typeof insuranceFundEntrySchema>;
