import { type AmountInputProblem, checkAmountInput, compareDecimal, isDecimal, normaliseAmountInput, parseDecimal } from '../../shared/format/decimal.ts';

/**
 * The sell-ad form's checks, mirroring the server's (p2p.contracts.ts and manage-ads.ts): an ISO
 * 4217 currency, a price with at most two decimals, limits of USDT (six decimals) with min ≥ 1 USDT
 * (the published floor) and min ≤ max, min no more than the quantity offered, a payment window of
 * 5–120 minutes, a contact and a remark of plain text. The server checks again and decides.
 */

/** Decimals of the prices (fiat hundredths) and of the quantities (USDT). */
export const FIAT_SCALE = 2;
export const P2P_SCALE = 6;
/** The smallest order an ad may allow (manage-ads.ts MIN_ORDER_MINOR). */
export const MIN_ORDER_USDT = '1';
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

export interface AdDraft {
  fiat: string;
  price: string;
  min: string;
  max: string;
  /** New ad: the total quantity frozen; edit: what the ad still offers (may only go down). */
  quantity: string;
  paymentWindow: string;
  contact: string;
  remark: string;
}

export type AdField = keyof AdDraft;

export type AdProblem =
  | AmountInputProblem
  | 'fiat'
  | 'minBelowFloor'
  | 'minAboveMax'
  | 'minAboveQuantity'
  | 'remainingOnlyDown'
  | 'windowRange'
  | 'tooLong'
  | 'plainText';

export interface AdContext {
  mode: 'post' | 'edit';
  /** New ad: the coin account's available USDT, when known. */
  available?: string;
  /** Edit: what the ad offers now. */
  currentRemaining?: string;
}

/** Control characters and angle brackets: the server refuses them in a contact or a remark. */
const NOT_PLAIN = /[\p{Cc}<>]/u;

function textProblem(text: string, max: number, required: boolean): AdProblem | undefined {
  const trimmed = text.trim();
  if (required && trimmed === '') return 'required';
  if (trimmed.length > max) return 'tooLong';
  if (NOT_PLAIN.test(trimmed)) return 'plainText';
  return undefined;
}

/** A decimal the user typed, made canonical, or undefined when it is not one. */
function decimalOf(text: string): ReturnType<typeof parseDecimal> | undefined {
  const normalised = normaliseAmountInput(text);
  return isDecimal(normalised) ? parseDecimal(normalised) : undefined;
}

/** Every field's problem; an empty object means the form may be sent. */
export function adFormProblems(draft: AdDraft, context: AdContext): Partial<Record<AdField, AdProblem>> {
  const problems: Partial<Record<AdField, AdProblem>> = {};
  if (!isFiatCode(draft.fiat.trim().toUpperCase())) problems.fiat = 'fiat';
  const price = checkAmountInput(draft.price, FIAT_SCALE);
  if (price) problems.price = price;

  const min = checkAmountInput(draft.min, P2P_SCALE);
  const max = checkAmountInput(draft.max, P2P_SCALE);
  if (min) problems.min = min;
  if (max) problems.max = max;

  let quantity: AdProblem | null;
  const quantityValue = decimalOf(draft.quantity);
  if (context.mode === 'edit') {
    // What the ad offers may go down to zero (nothing more to sell), never up.
    quantity = quantityValue && quantityValue.minor === 0n ? null : checkAmountInput(draft.quantity, P2P_SCALE);
    if (!quantity && quantityValue && context.currentRemaining && isDecimal(context.currentRemaining)) {
      if (compareDecimal(quantityValue, parseDecimal(context.currentRemaining)) > 0) quantity = 'remainingOnlyDown';
    }
  } else {
    quantity = checkAmountInput(draft.quantity, P2P_SCALE, context.available);
  }
  if (quantity) problems.quantity = quantity;

  const minValue = decimalOf(draft.min);
  const maxValue = decimalOf(draft.max);
  if (!min && minValue) {
    if (compareDecimal(minValue, parseDecimal(MIN_ORDER_USDT)) < 0) problems.min = 'minBelowFloor';
    else if (!max && maxValue && compareDecimal(minValue, maxValue) > 0) problems.min = 'minAboveMax';
    else if (!quantity && quantityValue && quantityValue.minor > 0n && compareDecimal(minValue, quantityValue) > 0) problems.min = 'minAboveQuantity';
  }

  const window = draft.paymentWindow.trim();
  if (!/^\d{1,3}$/.test(window) || Number(window) < PAYMENT_WINDOW_MIN || Number(window) > PAYMENT_WINDOW_MAX) problems.paymentWindow = 'windowRange';

  const contact = textProblem(draft.contact, CONTACT_MAX, true);
  if (contact) problems.contact = contact;
  const remark = textProblem(draft.remark, REMARK_MAX, false);
  if (remark) problems.remark = remark;
  return problems;
}

/** The body the server takes, from a draft with no problems. */
export function adBody(draft: AdDraft) {
  return {
    fiat: draft.fiat.trim().toUpperCase(),
    price: normaliseAmountInput(draft.price),
    min: normaliseAmountInput(draft.min),
    max: normaliseAmountInput(draft.max),
    paymentWindowMinutes: Number(draft.paymentWindow.trim()),
    contact: draft.contact.trim(),
    remark: draft.remark.trim(),
  };
}

/**
 * What the buyer pays for `quantity` USDT at `price` per USDT, in fiat hundredths rounded up — the
 * server's rule, so the seller is never paid less than the price. Undefined while either is not a
 * decimal.
 */
export function fiatTotal(quantity: string, price: string): string | undefined {
  const q = decimalOf(quantity);
  const p = decimalOf(price);
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

/** Quantity to buy: a positive USDT amount within the ad's min, max and what it has left. */
export type BuyQuantityProblem = AmountInputProblem | 'belowMin' | 'aboveMax' | 'aboveRemaining';

export function buyQuantityProblem(text: string, ad: { min: string; max: string; remaining: string }): BuyQuantityProblem | null {
  const problem = checkAmountInput(text, P2P_SCALE);
  if (problem) return problem;
  const value = parseDecimal(normaliseAmountInput(text));
  if (isDecimal(ad.min) && compareDecimal(value, parseDecimal(ad.min)) < 0) return 'belowMin';
  if (isDecimal(ad.max) && compareDecimal(value, parseDecimal(ad.max)) > 0) return 'aboveMax';
  if (isDecimal(ad.remaining) && compareDecimal(value, parseDecimal(ad.remaining)) > 0) return 'aboveRemaining';
  return null;
}

/** The most one order may take from an ad: its max, or what it has left when that is less. */
export function maxBuyable(ad: { max: string; remaining: string }): string {
  if (!isDecimal(ad.max) || !isDecimal(ad.remaining)) return ad.max;
  return compareDecimal(parseDecimal(ad.max), parseDecimal(ad.remaining)) <= 0 ? ad.max : ad.remaining;
}
