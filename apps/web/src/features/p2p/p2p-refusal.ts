import { type ErrorKey, errorKeyFromMsg } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { paymentPasswordLockDetails } from '../wallet/refusal.ts';

/**
 * What a refused P2P call tells the user beyond the catalogue message: the problem the answer's
 * `data` names (data.problem, data.until, data.retryAfterSeconds, data.party…) in words, and the
 * next step where there is one. Pure, so every wording is tested; the screen only renders it.
 */

export interface P2pRefusalDetail {
  key: MessageKey;
  vars: Record<string, string | number>;
}

/**
 * A follow-up the screen offers next to the refusal; `transfer`: move USDT to the fiat account, the
 * account P2P trades from (decisions page, "Account types").
 */
export type P2pRefusalAction = 'verify' | 'advanced' | 'contact' | 'paymentPassword' | 'transfer';

export interface P2pRefusal {
  errorKey: ErrorKey | undefined;
  details: P2pRefusalDetail[];
  action?: P2pRefusalAction;
  /** The form field the refusal is about, to mark it. */
  field?: 'price' | 'min' | 'max' | 'quantity' | 'paymentPassword' | 'reason';
  /** Seconds to wait before trying again (too many payment-password attempts). */
  retryAfterSeconds?: number;
}

export interface P2pRefusalFormat {
  /** A decimal string with its unit, e.g. "100 USDT". */
  amount: (value: string, unit?: string) => string;
  /** An instant (ISO text) as a local date and time. */
  time: (value: string) => string;
}

type Data = Record<string, unknown>;
const asData = (data: unknown): Data => (data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Data) : {});
const word = (value: unknown): string | undefined => (typeof value === 'string' && /^[a-z_]{1,40}$/.test(value) ? value : undefined);
const decimal = (value: unknown): string | undefined => (typeof value === 'string' && /^\d{1,30}(\.\d{1,18})?$/.test(value) ? value : undefined);
const instant = (value: unknown): string | undefined => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined);

/** WRONG_PURCHASE_QUANTITY's data.problem, from the ad form (manage-ads.ts) and from an order (order-machine.ts). */
const quantityProblemKeys: Record<string, MessageKey> = {
  min_below_floor: 'web.p2p.refusal.minBelowFloor',
  min_above_max: 'web.p2p.refusal.minAboveMax',
  min_above_total: 'web.p2p.refusal.minAboveTotal',
  remaining_only_goes_down: 'web.p2p.refusal.remainingOnlyDown',
  below_min: 'web.p2p.refusal.belowMin',
  above_max: 'web.p2p.refusal.aboveMax',
  above_remaining: 'web.p2p.refusal.aboveRemaining',
  not_positive: 'web.p2p.refusal.notPositive',
};

const quantityProblemFields: Record<string, P2pRefusal['field']> = {
  min_below_floor: 'min',
  min_above_max: 'min',
  min_above_total: 'min',
  remaining_only_goes_down: 'quantity',
  below_min: 'quantity',
  above_max: 'quantity',
  above_remaining: 'quantity',
  not_positive: 'quantity',
};

/** ORDER_STATE_CHANGED's data.problem (order-steps.ts, order-machine.ts). */
const stateProblemKeys: Record<string, MessageKey> = {
  wrong_state: 'web.p2p.refusal.wrongState',
  payment_window_over: 'web.p2p.refusal.paymentWindowOver',
  appeal_too_early: 'web.p2p.refusal.appealTooEarly',
  not_your_step: 'web.p2p.refusal.notYourStep',
};

/** WRONG_AMOUNT's data.problem (the domain's AmountProblem). */
const amountProblemKeys: Record<string, MessageKey> = {
  format: 'web.p2p.refusal.amountFormat',
  too_many_decimals: 'web.p2p.refusal.amountDecimals',
  too_large: 'web.p2p.refusal.amountTooLarge',
  not_positive: 'web.p2p.refusal.notPositive',
};

const amountFields: Record<string, P2pRefusal['field']> = { price: 'price', min: 'min', max: 'max', total: 'quantity', remaining: 'quantity' };

/** What the screen knows about the call that was refused. */
export interface P2pRefusalContext {
  /** An order placed on an ad of this side: taking a buy ad is selling into it. */
  adSide?: 'sell' | 'buy';
}

/**
 * The refusal of a P2P call (`message` is the catalogue's English text, `data` the answer's data;
 * `context` what the screen knows of the call).
 */
export function describeP2pRefusal(message: string, rawData: unknown, format: P2pRefusalFormat, context: P2pRefusalContext = {}): P2pRefusal {
  const errorKey = errorKeyFromMsg(message);
  const data = asData(rawData);
  const details: P2pRefusalDetail[] = [];
  const refusal: P2pRefusal = { errorKey, details };
  switch (errorKey) {
    case 'IDENTITY_VERIFICATION_REQUIRED':
      details.push({ key: data.party === 'seller' ? 'web.p2p.refusal.sellerIdentity' : 'web.p2p.refusal.identity', vars: {} });
      if (data.party !== 'seller') refusal.action = 'verify';
      break;
    case 'ADVANCED_VERIFICATION_REQUIRED':
      details.push({ key: data.party === 'seller' ? 'web.p2p.refusal.sellerAdvanced' : 'web.p2p.refusal.advanced', vars: {} });
      if (data.party !== 'seller') refusal.action = 'advanced';
      break;
    case 'CONTACT_METHOD_REQUIRED':
      details.push({ key: 'web.p2p.refusal.contact', vars: {} });
      refusal.action = 'contact';
      break;
    case 'INSUFFICIENT_BALANCE':
      // P2P sells from the fiat account: the USDT may well be in the coin account, a transfer away.
      details.push({ key: 'web.p2p.refusal.balance', vars: {} });
      refusal.field = 'quantity';
      refusal.action = 'transfer';
      break;
    case 'WRONG_PURCHASE_QUANTITY': {
      const problem = word(data.problem);
      const key = problem ? quantityProblemKeys[problem] : undefined;
      if (key) {
        const remaining = decimal(data.remaining);
        if (problem === 'remaining_only_goes_down') {
          details.push(remaining === undefined ? { key: 'web.p2p.refusal.remainingOnlyDownPlain', vars: {} } : { key, vars: { remaining: format.amount(remaining, 'USDT') } });
        } else {
          details.push({ key, vars: problem === 'min_below_floor' ? { floor: format.amount(decimal(data.floor) ?? '1', 'USDT') } : {} });
        }
      }
      refusal.field = (problem && quantityProblemFields[problem]) || 'quantity';
      break;
    }
    case 'WRONG_AMOUNT': {
      const problem = word(data.problem);
      const key = problem ? amountProblemKeys[problem] : undefined;
      if (key) details.push({ key, vars: { scale: typeof data.scale === 'number' ? data.scale : 6 } });
      const field = word(data.field);
      refusal.field = (field && amountFields[field]) || 'quantity';
      break;
    }
    case 'ORDER_STATE_CHANGED': {
      const problem = word(data.problem);
      const key = problem ? stateProblemKeys[problem] : undefined;
      if (key) details.push({ key, vars: {} });
      break;
    }
    case 'ORDERING_RESTRICTED': {
      const until = instant(data.until);
      details.push(until ? { key: 'web.p2p.refusal.restrictedUntil', vars: { time: format.time(until) } } : { key: 'web.p2p.refusal.restricted', vars: {} });
      break;
    }
    case 'AD_NOT_AVAILABLE':
      details.push({ key: 'web.p2p.refusal.adGone', vars: {} });
      break;
    case 'CANNOT_SELL_OWN_ORDER':
      details.push({ key: context.adSide === 'buy' ? 'web.p2p.refusal.ownBuyAd' : 'web.p2p.refusal.ownAd', vars: {} });
      break;
    case 'PAYMENT_PASSWORD_NOT_SET':
      details.push({ key: 'web.p2p.refusal.noPaymentPassword', vars: {} });
      refusal.action = 'paymentPassword';
      break;
    case 'WRONG_PAYMENT_PASSWORD':
    case 'PAYMENT_PASSWORD_LOCKED':
      details.push(...paymentPasswordLockDetails(errorKey, data, format.time));
      refusal.field = 'paymentPassword';
      break;
    case 'TOO_MANY_REQUESTS': {
      const seconds = typeof data.retryAfterSeconds === 'number' && data.retryAfterSeconds > 0 ? Math.ceil(data.retryAfterSeconds) : undefined;
      if (seconds !== undefined) {
        details.push({ key: 'web.p2p.refusal.retry', vars: { seconds } });
        refusal.retryAfterSeconds = seconds;
      }
      refusal.field = 'paymentPassword';
      break;
    }
    case 'WITHDRAW_WINDOW_OVER':
      details.push({ key: 'web.p2p.refusal.withdrawWindow', vars: {} });
      break;
    case 'TOO_MANY_ITEMS': {
      const limit = typeof data.limit === 'number' ? data.limit : undefined;
      if (limit !== undefined) details.push({ key: 'web.p2p.refusal.chatFull', vars: { limit } });
      break;
    }
    case 'PARAMETER_ERROR': {
      // data.fields: [{ field: 'body.reason', message }] — the route's list of failing fields.
      const fields = Array.isArray(data.fields) ? data.fields.map((each) => asData(each).field) : [];
      if (fields.includes('body.reason')) {
        details.push({ key: 'web.p2p.refusal.reasonShort', vars: {} });
        refusal.field = 'reason';
      }
      break;
    }
    default:
      break;
  }
  return refusal;
}
