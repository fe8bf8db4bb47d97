import { type p2pAdSides, placeP2pOrderContract, postP2pAdContract } from '@keel/contracts';
import { z } from 'zod';
import { compareDecimal, isDecimal, normaliseAmountInput, parseDecimal } from '../../shared/format/decimal.ts';
import { amountField, amountProblem } from '../assets/amount-field.ts';

/**
 * The P2P forms' schemas (ADR 0027): the contracts' own fields (`p2p.contracts.ts`: the currency
 * code, the payment window's 5–120 minutes, the contact and the remark as plain text) with the
 * amount fields of the money forms (`amountField`: format, decimals, above zero, the balance), plus
 * the rules between fields that a contract cannot state and the server checks in `manage-ads.ts`
 * and `place-order.ts`: min ≥ 1 USDT (the published floor), min ≤ max, min ≤ the quantity offered,
 * what an ad offers only goes down, and an order within the ad's min, max and what it has left.
 * Both sides of ads (issue 19) share these forms: a sell ad's quantity is held from the fiat
 * account when it is posted, a buy ad holds nothing; selling into a buy ad holds the seller's
 * quantity when the order is placed, and needs the seller's payment details.
 */

/** sell: the owner sells USDT (held when posted); buy: the owner buys USDT (nothing held). */
export type P2pAdSide = (typeof p2pAdSides)[number];

/** Decimals of the prices (fiat hundredths) and of the quantities (USDT). */
export const FIAT_SCALE = 2;
export const P2P_SCALE = 6;
/** The smallest order an ad may allow (manage-ads.ts MIN_ORDER_MINOR). */
export const MIN_ORDER_USDT = '1';
/** The payment window's range and default, as `p2p.contracts.ts` has them (for the field's hint). */
export const PAYMENT_WINDOW_MIN = 5;
export const PAYMENT_WINDOW_MAX = 120;
export const PAYMENT_WINDOW_DEFAULT = 15;
export const CONTACT_MAX = 200;
export const REMARK_MAX = 500;

/** The currencies offered in the pickers (ISO 4217); names come from Intl.DisplayNames in the user's language. */
export const FIAT_CODES = [
  'INR',
  'USD',
  'EUR',
  'NGN',
  'VND',
  'BRL',
  'GBP',
  'CNY',
  'JPY',
  'RUB',
  'TRY',
  'ARS',
  'IDR',
  'PHP',
  'KES',
  'ZAR',
  'AED',
  'MXN',
  'PKR',
  'THB',
  'UAH',
  'KRW',
  'CAD',
  'AUD',
  'CHF',
] as const;

export function isFiatCode(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^[A-Z]{3}$/.test(value);
}

/** The P2P rules' problems, as a field error's message (`p2p:<rule>`), put into words by the forms. */
export const p2pRules = {
  minBelowFloor: 'p2p:minBelowFloor',
  minAboveMax: 'p2p:minAboveMax',
  minAboveQuantity: 'p2p:minAboveQuantity',
  remainingOnlyDown: 'p2p:remainingOnlyDown',
  belowMin: 'p2p:belowMin',
  aboveMax: 'p2p:aboveMax',
  aboveRemaining: 'p2p:aboveRemaining',
} as const;

const decimalOf = (text: string) => (isDecimal(text) ? parseDecimal(text) : undefined);
/** True for a text that is a positive amount of USDT as typed (normalised), the only kind the limits compare. */
const isQuantity = (text: string) => text !== '' && amountProblem(text, { scale: P2P_SCALE }) === null;

export interface AdFormContext {
  mode: 'post' | 'edit';
  /** New ad: which side (a sell ad by default); only a sell ad's quantity is limited by the balance. */
  side?: P2pAdSide;
  /** New sell ad: the fiat account's available USDT, when known. */
  available?: string;
  /** Edit: what the ad offers now. */
  currentRemaining?: string;
}

/** What the form holds: the contract's fields as typed (the window as a number). */
export interface AdFormValues {
  fiat: string;
  price: string;
  min: string;
  max: string;
  /**
   * New ad: the total quantity (a sell ad's is frozen, a buy ad's is what it wants); edit: what the
   * ad still offers or wants (it may only go down, to zero).
   */
  quantity: string;
  paymentWindowMinutes: number;
  contact: string;
  remark: string;
}

const adContractFields = postP2pAdContract.body!.pick({ fiat: true, paymentWindowMinutes: true, contact: true, remark: true });

/** What an edited ad still offers: zero (nothing more to sell), or a quantity no larger than now. */
function remainingField(context: () => AdFormContext) {
  return z
    .string()
    .transform(normaliseAmountInput)
    .superRefine((text, issues) => {
      if (text !== '' && decimalOf(text)?.minor === 0n) return;
      const problem = text === '' ? 'required' : amountProblem(text, { scale: P2P_SCALE });
      if (problem) {
        issues.addIssue({ code: 'custom', message: `amount:${problem}` });
        return;
      }
      const current = context().currentRemaining;
      if (current !== undefined && isDecimal(current) && compareDecimal(parseDecimal(text), parseDecimal(current)) > 0) {
        issues.addIssue({ code: 'custom', message: p2pRules.remainingOnlyDown });
      }
    });
}

/** What a new ad's quantity may not exceed: the fiat account's balance for a sell ad; nothing for a buy ad. */
const postLimit = (context: AdFormContext) => (context.side === 'buy' ? undefined : context.available);

/**
 * The ad form's schema (either side). `context` is read when the form is checked, so the balance and the
 * ad on screen at that moment count. Its output is the body less the quantity's own name (`total`
 * for a new ad, `remaining` for an edit).
 */
export function adFormSchema(context: () => AdFormContext) {
  const post = context().mode === 'post';
  return adContractFields
    .safeExtend({
      price: amountField({ scale: FIAT_SCALE }),
      min: amountField({ scale: P2P_SCALE }),
      max: amountField({ scale: P2P_SCALE }),
      quantity: post ? amountField(() => ({ scale: P2P_SCALE, available: postLimit(context()) })) : remainingField(context),
    })
    .superRefine((values, issues) => {
      // Each rule compares fields that are amounts themselves; a field's own problem is said first.
      if (!isQuantity(values.min)) return;
      const min = parseDecimal(values.min);
      const problem =
        compareDecimal(min, parseDecimal(MIN_ORDER_USDT)) < 0
          ? p2pRules.minBelowFloor
          : isQuantity(values.max) && compareDecimal(min, parseDecimal(values.max)) > 0
            ? p2pRules.minAboveMax
            : isQuantity(values.quantity) && compareDecimal(min, parseDecimal(values.quantity)) > 0
              ? p2pRules.minAboveQuantity
              : null;
      if (problem) issues.addIssue({ code: 'custom', path: ['min'], message: problem });
    });
}

/** An ad's terms as the buy form checks an order against them. */
export interface AdLimits {
  min: string;
  max: string;
  remaining: string;
}

/** Where a quantity to buy (a valid amount) falls outside the ad's min, max and what it has left. */
export function buyLimitProblem(quantity: string, ad: AdLimits): keyof typeof p2pRules | null {
  const value = parseDecimal(quantity);
  if (isDecimal(ad.min) && compareDecimal(value, parseDecimal(ad.min)) < 0) return 'belowMin';
  if (isDecimal(ad.max) && compareDecimal(value, parseDecimal(ad.max)) > 0) return 'aboveMax';
  if (isDecimal(ad.remaining) && compareDecimal(value, parseDecimal(ad.remaining)) > 0) return 'aboveRemaining';
  return null;
}

/**
 * An order's quantity: an amount within the ad's min, max and what it has left and, when
 * `available` gives the fiat account's balance (selling into a buy ad holds it), no more than that.
 * The ad's own limits are said first.
 */
function orderQuantityField(ad: AdLimits, available?: () => string | undefined) {
  return amountField({ scale: P2P_SCALE }).superRefine((text, issues) => {
    if (!isQuantity(text)) return;
    const problem = buyLimitProblem(text, ad);
    if (problem) {
      issues.addIssue({ code: 'custom', message: p2pRules[problem] });
      return;
    }
    const balanceProblem = available ? amountProblem(text, { scale: P2P_SCALE, available: available() }) : null;
    if (balanceProblem) issues.addIssue({ code: 'custom', message: `amount:${balanceProblem}` });
  });
}

/** The buy form's schema: the order's body (the remark as the contract has it) and a quantity within the ad. */
export function buyFormSchema(ad: AdLimits) {
  return placeP2pOrderContract.body!.pick({ remark: true }).safeExtend({ quantity: orderQuantityField(ad) });
}

/**
 * Selling into a buy ad: the order's body with the seller's payment details required (the ad's
 * contact field: plain text, at most 200 characters, not blank — the server refuses an order on a
 * buy ad without them), and a quantity within the ad and the fiat account's balance, read when the
 * form is checked.
 */
export function sellIntoFormSchema(ad: AdLimits, available: () => string | undefined) {
  return placeP2pOrderContract.body!.pick({ remark: true }).safeExtend({
    contact: postP2pAdContract.body!.shape.contact,
    quantity: orderQuantityField(ad, available),
  });
}

/** The quantity typed, when it is one the ad would take (for the live "you pay" figure). */
export function acceptableQuantity(typed: string, ad: AdLimits): string | null {
  const text = normaliseAmountInput(typed);
  return isQuantity(text) && buyLimitProblem(text, ad) === null ? text : null;
}

/**
 * What the buyer pays for `quantity` USDT at `price` per USDT, in fiat hundredths rounded up — the
 * server's rule, so the seller is never paid less than the price. Undefined while either is not a
 * decimal.
 */
export function fiatTotal(quantity: string, price: string): string | undefined {
  const q = decimalOf(normaliseAmountInput(quantity));
  const p = decimalOf(normaliseAmountInput(price));
  if (!q || !p || q.minor < 0n || p.minor < 0n) return undefined;
  const productScale = q.scale + p.scale;
  let minor = q.minor * p.minor;
  if (productScale > FIAT_SCALE) {
    const divisor = 10n ** BigInt(productScale - FIAT_SCALE);
    minor = minor / divisor + (minor % divisor === 0n ? 0n : 1n);
  } else {
    minor *= 10n ** BigInt(FIAT_SCALE - productScale);
  }
  const digits = minor.toString().padStart(FIAT_SCALE + 1, '0');
  return `${digits.slice(0, -FIAT_SCALE)}.${digits.slice(-FIAT_SCALE)}`;
}

/** The most one order may take from an ad: its max, or what it has left when that is less. */
export function maxBuyable(ad: { max: string; remaining: string }): string {
  if (!isDecimal(ad.max) || !isDecimal(ad.remaining)) return ad.max;
  return compareDecimal(parseDecimal(ad.max), parseDecimal(ad.remaining)) <= 0 ? ad.max : ad.remaining;
}

/**
 * The most one may sell into a buy ad: what one order may take from it, or the fiat account's
 * available USDT when that is less (undefined while the balance is not known).
 */
export function maxSellable(ad: { max: string; remaining: string }, available: string | undefined): string | undefined {
  const most = maxBuyable(ad);
  if (available === undefined || !isDecimal(available) || !isDecimal(most)) return undefined;
  return compareDecimal(parseDecimal(available), parseDecimal(most)) < 0 ? available : most;
}
