import { changePositionMarginContract, closePositionContract, decimalAmountSchema, openPositionContract, setPositionTriggersContract } from '@keel/contracts';
import { MARGIN_SCALE, parseAmount, type TriggerProblem } from '@keel/domain';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { amountField, amountProblem } from '../assets/amount-field.ts';
import {
  type LeverageProduct,
  type OrderType,
  orderPreview,
  type PositionSide,
  priceMinorOf,
  quantityMinorOf,
  triggerPricesProblem,
  usdtMinorOf,
} from './leverage-logic.ts';

// The leverage forms' rules (ADR 0027): each builds on its contract's body schema, with the checks
// the server makes that the screen can make first — the amount rules of every money form, the
// leverage the bracket allows, take-profit and stop-loss on the right side of the price and of the
// liquidation price, the cost within the balance. The leverage screens are one chunk with their
// forms, zod included: they are not among the first screens that paint without zod (ADR 0025),
// and forms in a chunk of their own would share the trading rules with the screen, which the
// build would then move into the tab screens' common chunk (apps/web/vite.config.ts).

/** A problem found by these rules, carried as the field error's message and put into words by the forms. */
export const leverageProblems = {
  priceFormat: 'leverage:priceFormat',
  costAboveAvailable: 'leverage:costAboveAvailable',
  noPrice: 'leverage:noPrice',
  leverageAboveBracket: 'leverage:leverageAboveBracket',
  notionalTooLarge: 'leverage:notionalTooLarge',
  quantityZero: 'leverage:quantityZero',
  leverageOutOfRange: 'leverage:leverageOutOfRange',
  takeProfitWrongSide: 'leverage:takeProfitWrongSide',
  stopLossWrongSide: 'leverage:stopLossWrongSide',
  stopLossBeyondLiquidation: 'leverage:stopLossBeyondLiquidation',
  quantityFormat: 'leverage:quantityFormat',
  quantityAboveOpen: 'leverage:quantityAboveOpen',
  aboveRemovable: 'leverage:aboveRemovable',
  limitRequired: 'leverage:limitRequired',
} as const;

const triggerMessages: Record<TriggerProblem, { field: 'takeProfitPrice' | 'stopLossPrice'; message: string }> = {
  take_profit_wrong_side: { field: 'takeProfitPrice', message: leverageProblems.takeProfitWrongSide },
  stop_loss_wrong_side: { field: 'stopLossPrice', message: leverageProblems.stopLossWrongSide },
  stop_loss_beyond_liquidation: { field: 'stopLossPrice', message: leverageProblems.stopLossBeyondLiquidation },
};

/** An optional price field: empty is "none"; anything else a price above zero with at most 8 decimals. Output: the canonical text or ''. */
export const optionalPriceField = decimalAmountSchema.transform(normaliseAmountInput).superRefine((text, issues) => {
  if (text === '') return;
  const minor = priceMinorOf(text);
  if (minor === null || minor <= 0n) issues.addIssue({ code: 'custom', message: leverageProblems.priceFormat });
});

/** '' (none) as the contract's null. */
export const priceOrNull = (text: string): string | null => (text === '' ? null : text);

export interface OrderLimits {
  product: LeverageProduct;
  /** The leveraged account's available balance. */
  available: string;
  /** The last recorded price of the market on screen. */
  lastPrice: string | null;
  /** A market order, or a limit order (which needs a limit price and is quoted at it). */
  type: OrderType;
}

/**
 * The order form (side, margin, leverage, a limit order's limit price, take-profit, stop-loss): the
 * contract's side and leverage, the margin as every money form's amount within the balance, then
 * the quote the server would make — at the last recorded price, or at a limit order's limit — its
 * refusal on the leverage, margin plus fee within the balance, and the triggers against that price
 * and the liquidation price. `limits` is read when the form is checked (the order type, balance and
 * price on screen then).
 */
export function orderFormSchema(limits: () => OrderLimits) {
  return openPositionContract
    .body!.pick({ side: true, leverage: true })
    .safeExtend({
      margin: amountField(() => ({ scale: MARGIN_SCALE, available: limits().available })),
      limitPrice: optionalPriceField,
      takeProfitPrice: optionalPriceField,
      stopLossPrice: optionalPriceField,
    })
    .superRefine((values, issues) => {
      const { product, available, lastPrice, type } = limits();
      if (type === 'limit' && values.limitPrice === '') {
        issues.addIssue({ code: 'custom', path: ['limitPrice'], message: leverageProblems.limitRequired });
        return;
      }
      const preview = orderPreview({ product, side: values.side, margin: values.margin, leverage: values.leverage, lastPrice, type, limitPrice: values.limitPrice });
      if (preview.kind === 'noPrice') {
        issues.addIssue({ code: 'custom', path: ['margin'], message: leverageProblems.noPrice });
        return;
      }
      if (preview.kind === 'problem') {
        const message = {
          leverage_above_bracket: leverageProblems.leverageAboveBracket,
          notional_too_large: leverageProblems.notionalTooLarge,
          quantity_zero: leverageProblems.quantityZero,
          leverage_out_of_range: leverageProblems.leverageOutOfRange,
        }[preview.problem];
        issues.addIssue({ code: 'custom', path: [preview.problem === 'quantity_zero' ? 'margin' : 'leverage'], message });
        return;
      }
      if (preview.kind !== 'quote') return;
      // A margin beyond the balance is the margin field's own problem already.
      const marginWithin = amountProblem(values.margin, { scale: MARGIN_SCALE, available }) === null;
      if (marginWithin && parseAmount(preview.quote.cost, MARGIN_SCALE) > parseAmount(available, MARGIN_SCALE)) {
        issues.addIssue({ code: 'custom', path: ['margin'], message: leverageProblems.costAboveAvailable });
      }
      const problem = triggerPricesProblem(values.side, values, preview.quote.referencePrice, preview.quote.liquidationPriceMinor);
      if (problem) issues.addIssue({ code: 'custom', path: [triggerMessages[problem].field], message: triggerMessages[problem].message });
    });
}

export interface OrderValues {
  side: PositionSide;
  margin: string;
  leverage: number;
  limitPrice: string;
  takeProfitPrice: string;
  stopLossPrice: string;
}

/** The body of a market order (POST /home/leverage/positions). */
export function openBody(product: LeverageProduct, symbol: string, values: OrderValues) {
  return {
    product,
    symbol,
    side: values.side,
    margin: values.margin,
    leverage: values.leverage,
    takeProfitPrice: priceOrNull(values.takeProfitPrice),
    stopLossPrice: priceOrNull(values.stopLossPrice),
  };
}

/** The body of a limit order (POST /home/leverage/orders). */
export function limitBody(product: LeverageProduct, symbol: string, values: OrderValues) {
  return { ...openBody(product, symbol, values), limitPrice: values.limitPrice };
}

/** The take-profit and stop-loss of an open position, checked against the last price and its liquidation price. */
export function triggersFormSchema(limits: () => { side: PositionSide; lastPrice: string | null; liquidationPrice: string | null }) {
  return setPositionTriggersContract
    .body!.safeExtend({ takeProfitPrice: optionalPriceField, stopLossPrice: optionalPriceField })
    .superRefine((values, issues) => {
      const { side, lastPrice, liquidationPrice } = limits();
      if (lastPrice === null) return;
      const problem = triggerPricesProblem(side, values, lastPrice, liquidationPrice === null ? null : priceMinorOf(liquidationPrice));
      if (problem) issues.addIssue({ code: 'custom', path: [triggerMessages[problem].field], message: triggerMessages[problem].message });
    });
}

/** Adding margin (within the available balance) or removing it (within what may be removed at the mark price). */
export function marginFormSchema(limits: () => { direction: 'add' | 'remove'; available: string; removable: string | null }) {
  return changePositionMarginContract
    .body!.pick({ direction: true })
    .safeExtend({
      amount: amountField(() => {
        const { direction, available } = limits();
        return direction === 'add' ? { scale: MARGIN_SCALE, available } : { scale: MARGIN_SCALE };
      }).superRefine((amount, issues) => {
        const { direction, removable } = limits();
        const minor = usdtMinorOf(amount);
        if (direction !== 'remove' || removable === null || minor === null) return;
        if (minor > parseAmount(removable, MARGIN_SCALE)) issues.addIssue({ code: 'custom', message: leverageProblems.aboveRemovable });
      }),
    });
}

/** A close: all (empty) or part — a quantity of at most 8 decimals, above zero, at most what is open. */
export function closeFormSchema(limits: () => { openQuantity: string }) {
  return closePositionContract.body!.safeExtend({
    quantity: decimalAmountSchema.transform(normaliseAmountInput).superRefine((text, issues) => {
      if (text === '') return;
      const minor = quantityMinorOf(text);
      if (minor === null || minor <= 0n) {
        issues.addIssue({ code: 'custom', message: leverageProblems.quantityFormat });
        return;
      }
      const open = quantityMinorOf(limits().openQuantity);
      if (open !== null && minor > open) issues.addIssue({ code: 'custom', message: leverageProblems.quantityAboveOpen });
    }),
  });
}
