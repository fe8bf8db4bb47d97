import { placeOptionOrderContract } from '@keel/contracts';
import { amountField, amountProblem } from '../assets/amount-field.ts';
import { OPTIONS_SCALE, type OptionProduct, STAKE_OUT_OF_RANGE, stakeRangeProblem } from './options-logic.ts';

// The order form's rules, apart from options-logic.ts: they build on the contract's zod schema,
// and the trade screen's first render (which uses options-logic) paints before zod has arrived
// (ADR 0025, fourth pass). Only the order form, a chunk of its own, imports this.

export interface StakeLimits {
  /** The options account's usable balance. */
  available: string;
  /** The product chosen, whose range the stake must be in. */
  product?: Pick<OptionProduct, 'minStake' | 'maxStake'>;
}

/**
 * The order form's schema (ADR 0027): the order's `amount` as the contract has it, with the money
 * forms' amount rules (`amountField`: format, six decimals, above zero, the options balance) and
 * the product's stake range, which the server checks too. `limits` is read when the form is
 * checked (the balance and the cycle on screen then).
 */
export function stakeFormSchema(limits: () => StakeLimits) {
  return placeOptionOrderContract.body!.pick({ amount: true }).safeExtend({
    amount: amountField(() => ({ scale: OPTIONS_SCALE, available: limits().available })).superRefine((stake, issues) => {
      const { product } = limits();
      if (!product || stake === '' || amountProblem(stake, { scale: OPTIONS_SCALE }) !== null) return;
      if (stakeRangeProblem(stake, product) !== null) issues.addIssue({ code: 'custom', message: STAKE_OUT_OF_RANGE });
    }),
  });
}
