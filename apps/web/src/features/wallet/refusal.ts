import { type ErrorKey, errorKeyFromMsg } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

/**
 * What a refused wallet call tells the user beyond the catalogue message: the rule that applied
 * and its figures from the answer's `data` (decisions page 1.3: a refused withdrawal always names
 * the rule). Pure, so every refusal's wording is tested; the screen only renders the result.
 */

export interface RefusalDetail {
  key: MessageKey;
  vars: Record<string, string | number>;
}

/** A follow-up the screen offers next to the refusal. */
export type RefusalAction = 'verify' | 'paymentPassword';

export interface Refusal {
  /** The catalogue key of the server's message, when it is one. */
  errorKey: ErrorKey | undefined;
  details: RefusalDetail[];
  action?: RefusalAction;
  /** The form field the refusal is about, to mark it. */
  field?: 'amount' | 'paymentPassword' | 'address';
}

/** How figures from `data` are written in the user's language (injected: the screen knows the locale). */
export interface RefusalFormat {
  /** A decimal string with its unit, e.g. "50,000 USDT". */
  amount: (value: string, unit?: string) => string;
  /** An instant (ISO text or epoch milliseconds) as a local date and time. */
  time: (value: string | number) => string;
}

type Data = Record<string, unknown>;

const asData = (data: unknown): Data => (data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Data) : {});
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
const decimal = (value: unknown): string | undefined => {
  const found = text(value);
  return found !== undefined && /^-?\d+(\.\d+)?$/.test(found) ? found : undefined;
};
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
const instant = (value: unknown): string | number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;
const clock = (value: unknown): string | undefined => (typeof value === 'string' && /^\d{2}:\d{2}$/.test(value) ? value : undefined);

const addressProblemKeys = {
  empty: 'web.address.problem.empty',
  format: 'web.address.problem.format',
  checksum: 'web.address.problem.checksum',
  wrong_network: 'web.address.problem.wrong_network',
} as const satisfies Record<string, MessageKey>;

export type AddressProblemCode = keyof typeof addressProblemKeys;

export function addressProblemKey(problem: unknown): MessageKey | undefined {
  return typeof problem === 'string' && problem in addressProblemKeys ? addressProblemKeys[problem as AddressProblemCode] : undefined;
}

/** The rule a refusal names, as the user reads it; an unknown rule is still named by its code. */
function ruleDetail(rule: unknown): RefusalDetail[] {
  const code = text(rule);
  return code ? [{ key: 'web.withdraw.refusal.rule', vars: { rule: code } }] : [];
}

/**
 * A wrong or locked payment password in words (ADR 0018): how many wrong tries are left, or until
 * when it is locked. Shared by the withdrawal form and the P2P release (p2p-refusal.ts).
 */
export function paymentPasswordLockDetails(
  errorKey: 'WRONG_PAYMENT_PASSWORD' | 'PAYMENT_PASSWORD_LOCKED',
  data: Record<string, unknown>,
  time: (value: string) => string,
): RefusalDetail[] {
  const until = typeof data.until === 'string' ? data.until : typeof data.lockedUntil === 'string' ? data.lockedUntil : undefined;
  const lockedUntil = until !== undefined && !Number.isNaN(Date.parse(until)) ? until : undefined;
  if (lockedUntil) return [{ key: 'web.paymentPassword.lockedUntil', vars: { time: time(lockedUntil) } }];
  if (errorKey === 'PAYMENT_PASSWORD_LOCKED') return [{ key: 'web.paymentPassword.locked', vars: {} }];
  const left = count(data.failuresLeft);
  return left !== undefined && left > 0 ? [{ key: 'web.paymentPassword.failuresLeft', vars: { left } }] : [];
}

/**
 * The refusal of a wallet call (`message` is the catalogue's English text, `data` the answer's
 * data). `asset` is the unit of amounts the answer gives without one (the form's asset).
 */
export function describeRefusal(message: string, rawData: unknown, format: RefusalFormat, asset?: string): Refusal {
  const errorKey = errorKeyFromMsg(message);
  const data = asData(rawData);
  const details: RefusalDetail[] = [];
  const refusal: Refusal = { errorKey, details };
  switch (errorKey) {
    case 'WITHDRAWAL_IMPOSSIBLE': {
      if (data.rule === 'tier_daily_limit') {
        const limit = decimal(data.limitUsdt);
        const used = decimal(data.usedUsdt);
        const remaining = decimal(data.remainingUsdt);
        if (limit !== undefined && used !== undefined && remaining !== undefined) {
          details.push({
            key: 'web.withdraw.refusal.tierDailyLimit',
            vars: { limit: format.amount(limit, 'USDT'), used: format.amount(used, 'USDT'), remaining: format.amount(remaining, 'USDT') },
          });
        } else details.push({ key: 'web.withdraw.refusal.tierDailyLimitPlain', vars: {} });
      } else if (data.rule === 'channel_unavailable') {
        details.push({ key: 'web.withdraw.refusal.channelUnavailable', vars: {} });
      } else details.push(...ruleDetail(data.rule));
      break;
    }
    case 'DAILY_WITHDRAWAL_COUNT_LIMIT': {
      const limit = count(data.limit);
      const used = count(data.used);
      if (limit !== undefined && used !== undefined) details.push({ key: 'web.withdraw.refusal.dailyCount', vars: { limit, used } });
      else if (limit !== undefined) details.push({ key: 'web.withdraw.refusal.dailyCountPlain', vars: { limit } });
      break;
    }
    case 'TRANSACTION_TIME_LIMITED': {
      const from = clock(data.from);
      const to = clock(data.to);
      if (from && to) details.push({ key: 'web.withdraw.refusal.timeWindow', vars: { from, to, timeZone: text(data.timeZone) ?? 'UTC' } });
      break;
    }
    case 'WITHDRAWAL_CLOSED':
      details.push({ key: 'web.withdraw.refusal.closed', vars: {} });
      break;
    case 'WITHDRAWAL_FORBIDDEN':
      details.push({ key: 'web.withdraw.refusal.forbidden', vars: {} });
      break;
    case 'WITHDRAWAL_PERIOD': {
      const until = instant(data.until) ?? instant(data.untilMs);
      const time = until === undefined ? undefined : format.time(until);
      if (data.rule === 'password_change_lock') {
        details.push(time ? { key: 'web.withdraw.refusal.passwordLock', vars: { time } } : { key: 'web.withdraw.refusal.passwordLockPlain', vars: {} });
      } else if (data.rule === 'address_hold') {
        details.push(time ? { key: 'web.withdraw.refusal.addressHold', vars: { time } } : { key: 'web.withdraw.refusal.addressHoldPlain', vars: {} });
        refusal.field = 'address';
      } else {
        details.push(...ruleDetail(data.rule));
        if (time) details.push({ key: 'web.withdraw.refusal.until', vars: { time } });
      }
      break;
    }
    case 'IDENTITY_VERIFICATION_REQUIRED':
      details.push({ key: 'web.withdraw.refusal.identity', vars: {} });
      refusal.action = 'verify';
      break;
    case 'PAYMENT_PASSWORD_NOT_SET':
      details.push({ key: 'web.withdraw.refusal.noPaymentPassword', vars: {} });
      refusal.action = 'paymentPassword';
      break;
    case 'WRONG_PAYMENT_PASSWORD':
    case 'PAYMENT_PASSWORD_LOCKED':
      details.push(...paymentPasswordLockDetails(errorKey, data, format.time));
      refusal.field = 'paymentPassword';
      break;
    case 'AMOUNT_OUT_OF_RANGE': {
      const unit = text(data.asset) ?? asset;
      const min = decimal(data.min);
      const max = decimal(data.max);
      if (min !== undefined) details.push({ key: 'web.withdraw.refusal.min', vars: { min: format.amount(min, unit) } });
      if (max !== undefined) details.push({ key: 'web.withdraw.refusal.max', vars: { max: format.amount(max, unit) } });
      refusal.field = 'amount';
      break;
    }
    case 'INSUFFICIENT_BALANCE': {
      details.push({ key: 'web.withdraw.refusal.balance', vars: {} });
      const available = decimal(data.available);
      if (available !== undefined) details.push({ key: 'web.withdraw.refusal.available', vars: { available: format.amount(available, text(data.asset) ?? asset) } });
      refusal.field = 'amount';
      break;
    }
    case 'WRONG_AMOUNT':
      refusal.field = 'amount';
      break;
    case 'TOO_MANY_REQUESTS': {
      const seconds = typeof data.retryAfterSeconds === 'number' && data.retryAfterSeconds > 0 ? Math.ceil(data.retryAfterSeconds) : undefined;
      if (seconds !== undefined) details.push({ key: 'web.withdraw.refusal.retry', vars: { seconds } });
      break;
    }
    case 'WRONG_ADDRESS': {
      const key = addressProblemKey(data.problem);
      if (key) details.push({ key, vars: {} });
      refusal.field = 'address';
      break;
    }
    case 'TOO_MANY_ITEMS': {
      const limit = count(data.limit);
      if (limit !== undefined) details.push({ key: 'web.wallet.refusal.tooManyItems', vars: { limit } });
      break;
    }
    case 'PRICE_UNAVAILABLE':
      details.push({ key: 'web.withdraw.refusal.price', vars: {} });
      break;
    default:
      break;
  }
  return refusal;
}
