import { investFundContract, paymentPasswordSchema, publishFundRequestContract } from '@keel/contracts';
import { z } from 'zod';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { bodySchema } from '../../shared/forms/contract-form.ts';
import { amountField } from '../assets/amount-field.ts';
import { type FundPolicy, fundAssetScale, investEstimate, percentToPpm, publishEstimate } from './fund-figures.ts';

// The fund forms (ADR 0027), each built on its contract's body: the amounts are every money form's
// amount field (format, the asset's scale, above zero, within the balance), the whole numbers typed
// as text, the terms checked by the domain's `fundTermsProblem` (publishEstimate), the payment
// password the contracts' six digits.

/** The forms' own problems, carried as the field error's message and put into words by the page. */
export const fundProblems = {
  whole: 'fund:whole',
  amount: 'fund:amount',
  rate: 'fund:rate',
  term: 'fund:term',
  schedule: 'fund:schedule',
  window: 'fund:window',
  aboveLimit: 'fund:aboveLimit',
  tooSmall: 'fund:tooSmall',
  overRemaining: 'fund:overRemaining',
} as const;

/** What the publish form's rules read when they run: the published policy, the prices, the coin balances. */
export interface PublishContext {
  policy: FundPolicy;
  prices: Parameters<typeof publishEstimate>[1]['prices'];
  balances: readonly { asset: string; available: string }[];
}

const whole = z.string().trim().regex(/^\d{1,6}$/, fundProblems.whole);

/** The publish form: the contract's texts and choices, the numbers as typed, and the terms' rules. */
export function publishFormSchema(context: () => PublishContext) {
  return bodySchema(publishFundRequestContract)
    .pick({ borrowerType: true, title: true, purpose: true, collateralAsset: true })
    .safeExtend({
      amount: amountField({ scale: 6 }),
      dailyRatePercent: z
        .string()
        .transform(normaliseAmountInput)
        .superRefine((text, issues) => {
          if (text === '') return;
          const ppm = percentToPpm(text);
          const max = percentToPpm(context().policy.maxDailyRatePercent);
          if (ppm === null || (max !== null && ppm > max)) issues.addIssue({ code: 'custom', message: fundProblems.rate });
        }),
      termDays: whole,
      tranches: whole,
      releasePeriodDays: whole,
      windowHours: whole,
      collateralAmount: z.string(),
    })
    .superRefine((value, issues) => {
      const { policy, prices, balances } = context();
      const scale = fundAssetScale(value.collateralAsset);
      const available = balances.find((each) => each.asset === value.collateralAsset)?.available;
      const collateral = amountField({ scale, available }).safeParse(value.collateralAmount);
      if (!collateral.success) {
        for (const issue of collateral.error.issues) issues.addIssue({ code: 'custom', message: issue.message, path: ['collateralAmount'] });
      }
      const estimate = publishEstimate(
        { ...value, collateralAmount: collateral.success ? collateral.data : '' },
        { policy, prices, creditScore: null },
      );
      const path = {
        amount: 'amount',
        aboveLimit: 'amount',
        rate: 'dailyRatePercent',
        term: 'termDays',
        schedule: 'releasePeriodDays',
        window: 'windowHours',
      } as const;
      if (estimate.problem !== null) issues.addIssue({ code: 'custom', message: fundProblems[estimate.problem], path: [path[estimate.problem]] });
    });
}

export type PublishFormValues = z.input<ReturnType<typeof publishFormSchema>>;

/** The invest form: an amount within the USDT balance, at most what remains, at least the minimum unless it fills the rest. */
export function investFormSchema(limits: () => { available: string | undefined; remaining: string; amount: string; totalDue: string; minInvestment: string }) {
  return bodySchema(investFundContract)
    .pick({ amount: true })
    .safeExtend({ amount: amountField(() => ({ scale: 6, available: limits().available })) })
    .superRefine((value, issues) => {
      const { remaining, amount, totalDue, minInvestment } = limits();
      const problem = investEstimate({ remaining, amount, totalDue }, value.amount, minInvestment).problem;
      if (problem !== null) issues.addIssue({ code: 'custom', message: fundProblems[problem], path: ['amount'] });
    });
}

/** The payment password sheet of a publication or an investment. */
export const fundPasswordSchema = bodySchema(investFundContract).pick({ paymentPassword: true }).safeExtend({ paymentPassword: paymentPasswordSchema });
