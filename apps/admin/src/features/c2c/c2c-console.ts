import {
  ApiError,
  type ContractData,
  errorCatalogue,
  type getMerchantProfileContract,
  type listC2cAppealsContract,
  type listMerchantRequestsContract,
  merchantTermsSchema,
  saveMerchantProfileContract,
} from '@keel/contracts';
import {
  AmountError,
  type BankDetails,
  bankDetailFields,
  C2C_CONFIRM_WINDOW_MS,
  C2C_COUNTRIES,
  C2C_OFFER_WINDOW_MS,
  C2C_PAYMENT_WINDOW_MS,
  isC2cCountry,
  parsePositiveAmount,
} from '@keel/domain';
import type { MessageKey } from '@keel/locales';
import { z } from 'zod';
import { fieldMessage } from '../../shared/form-messages.ts';

// C2C through merchants in the back-office (issue 19, ADR 0043): what the merchant console and
// support's C2C appeals show beside the server's answers, kept apart from the pages so it is
// tested without drawing them. The server decides every step; this only says it first.

export type MerchantProfile = ContractData<typeof getMerchantProfileContract>;
export type MerchantRequest = ContractData<typeof listMerchantRequestsContract>['items'][number];
export type C2cAppeal = ContractData<typeof listC2cAppealsContract>['items'][number];
export type MerchantState = 'offers' | 'open' | 'history';

/** Prices are fiat per USDT in hundredths (the server's `fiatText`); USDT has six decimals. */
export const C2C_PRICE_SCALE = 2;
export const C2C_USDT_SCALE = 6;

/** The countries C2C serves (the domain's list, the one the server checks terms against), in its order. */
export const c2cCountries = Object.keys(C2C_COUNTRIES) as (keyof typeof C2C_COUNTRIES)[];

/** A served country's fiat currency, or null for a code C2C does not serve. */
export function currencyOf(country: string): string | null {
  return isC2cCountry(country) ? C2C_COUNTRIES[country].currency : null;
}

// ---- The profile form ----

/** A decimal above zero with at most `scale` decimals, as the server's parser takes it. */
export function isPositiveDecimal(text: string, scale: number): boolean {
  return minorOf(text, scale) !== null;
}

/** A decimal above zero in minor units at `scale`, or null when the server's parser would refuse it. */
function minorOf(text: string, scale: number): bigint | null {
  try {
    return parsePositiveAmount(text.trim(), scale);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
}

const { shape: termsShape } = merchantTermsSchema;

/** One row of terms: a served country, the price (2 decimals) and the limits (6 decimals), the maximum not below the minimum. */
const termsRowSchema = merchantTermsSchema
  .extend({
    country: termsShape.country.refine(isC2cCountry, { message: fieldMessage('admin.c2c.problem.country') }),
    price: termsShape.price.refine((text) => isPositiveDecimal(text, C2C_PRICE_SCALE), { message: fieldMessage('admin.c2c.problem.price', { scale: C2C_PRICE_SCALE }) }),
    minUsdt: termsShape.minUsdt.refine((text) => isPositiveDecimal(text, C2C_USDT_SCALE), { message: fieldMessage('admin.c2c.problem.usdt', { scale: C2C_USDT_SCALE }) }),
    maxUsdt: termsShape.maxUsdt.refine((text) => isPositiveDecimal(text, C2C_USDT_SCALE), { message: fieldMessage('admin.c2c.problem.usdt', { scale: C2C_USDT_SCALE }) }),
  })
  .refine(
    (row) => {
      const min = minorOf(row.minUsdt, C2C_USDT_SCALE);
      const max = minorOf(row.maxUsdt, C2C_USDT_SCALE);
      return min === null || max === null || max >= min;
    },
    { path: ['maxUsdt'], message: fieldMessage('admin.c2c.problem.maxBelowMin') },
  );

/**
 * The profile's form: the save contract's body (`saveMerchantProfileContract`), its terms' numbers
 * checked as the server parses them, each served country at most once.
 */
const saveBody = saveMerchantProfileContract.body!;

export const merchantProfileFormSchema = saveBody.extend({
  terms: z
    .array(termsRowSchema)
    .max(20, { message: fieldMessage('admin.c2c.problem.tooManyTerms', { max: 20 }) })
    .superRefine((rows, context) => {
      const seen = new Set<string>();
      rows.forEach((row, index) => {
        if (seen.has(row.country)) context.addIssue({ code: 'custom', path: [index, 'country'], message: fieldMessage('admin.c2c.problem.duplicateCountry') });
        seen.add(row.country);
      });
    }),
});

export type MerchantProfileForm = z.input<typeof merchantProfileFormSchema>;
export type MerchantProfileBody = z.output<typeof merchantProfileFormSchema>;

/** The form of a saved profile, or the empty one before the first save (the server answers "not found" until then). */
export function profileFormValues(profile: MerchantProfile | null): MerchantProfileForm {
  if (!profile) return { displayName: '', paymentDetails: '', online: false, terms: [] };
  return {
    displayName: profile.displayName,
    paymentDetails: profile.paymentDetails,
    online: profile.online,
    terms: profile.terms.map(({ country, price, minUsdt, maxUsdt }) => ({ country, price: trimZeros(price), minUsdt: trimZeros(minUsdt), maxUsdt: trimZeros(maxUsdt) })),
  };
}

/** The saved profile with only the online switch changed: what the console's quick switch sends. */
export function profileWithOnline(profile: MerchantProfile, online: boolean): z.input<typeof saveBody> {
  return { ...profileFormValues(profile), online };
}

/** A new row of terms: the first served country the form has no row for, or null when every one has. */
export function nextTermsRow(rows: readonly { country: string }[]): { country: string; price: string; minUsdt: string; maxUsdt: string } | null {
  const country = c2cCountries.find((code) => !rows.some((row) => row.country === code));
  return country ? { country, price: '', minUsdt: '', maxUsdt: '' } : null;
}

/** "100.000000" as a person types it: "100"; "0.920000" → "0.92". */
export function trimZeros(amount: string): string {
  return amount.includes('.') ? amount.replace(/0+$/, '').replace(/\.$/, '') : amount;
}

/** A refused save placed on a field of the form (`terms.2.maxUsdt`), said by an `admin.c2c.problem.*` key. */
export interface SaveRefusal {
  field: `terms.${number}.${'country' | 'price' | 'minUsdt' | 'maxUsdt'}` | 'displayName' | 'paymentDetails';
  key: MessageKey;
  vars?: Record<string, string | number>;
}

const termsField = /^terms\.(\d+)\.(country|price|minUsdt|maxUsdt)$/;

/**
 * Where a refused save goes in the form: the server names the row and the number it refused
 * (`WRONG_AMOUNT` with `field: "terms.1.maxUsdt"`, `problem: "below_minimum"`; `PARAMETER_ERROR`
 * for a country it does not serve or one named twice). Null when the answer names nothing the
 * form shows (the catalogue's message then stands alone).
 */
export function saveRefusal(error: unknown): SaveRefusal | null {
  if (!(error instanceof ApiError) || !error.data || typeof error.data !== 'object') return null;
  const { field, problem, scale } = error.data as { field?: unknown; problem?: unknown; scale?: unknown };
  if (typeof field !== 'string') return null;
  const match = termsField.exec(field);
  if (!match) return null;
  const name = match[2] as 'country' | 'price' | 'minUsdt' | 'maxUsdt';
  const place = `terms.${Number(match[1])}.${name}` as const;
  if (error.message === errorCatalogue.PARAMETER_ERROR.msg && name === 'country') {
    return { field: place, key: problem === 'duplicate' ? 'admin.c2c.problem.duplicateCountry' : 'admin.c2c.problem.country' };
  }
  if (error.message !== errorCatalogue.WRONG_AMOUNT.msg || name === 'country') return null;
  if (problem === 'below_minimum') return { field: place, key: 'admin.c2c.problem.maxBelowMin' };
  const decimals = typeof scale === 'number' ? scale : name === 'price' ? C2C_PRICE_SCALE : C2C_USDT_SCALE;
  return { field: place, key: name === 'price' ? 'admin.c2c.problem.price' : 'admin.c2c.problem.usdt', vars: { scale: decimals } };
}

// ---- Orders ----

/** What the merchant does with an order now, or waits for (the domain's state machine, from the merchant's side). */
export type MerchantStep =
  | 'answer_offer'
  | 'await_user_payment'
  | 'confirm_or_appeal'
  | 'send_fiat'
  | 'await_user_confirm'
  | 'with_support'
  | 'ended';

export function merchantStepOf(request: Pick<MerchantRequest, 'kind' | 'status'>): MerchantStep {
  switch (request.status) {
    case 'offered':
      return 'answer_offer';
    case 'awaiting_payment':
      // A deposit's user pays the merchant; a withdrawal's merchant pays the user.
      return request.kind === 'deposit' ? 'await_user_payment' : 'send_fiat';
    case 'paid':
      // A deposit's merchant confirms the fiat arrived (or appeals); a withdrawal's user confirms.
      return request.kind === 'deposit' ? 'confirm_or_appeal' : 'await_user_confirm';
    case 'appealing':
      return 'with_support';
    default:
      return 'ended';
  }
}

/** The deadline an order runs against now, with the window it belongs to; null when none runs. */
export interface RunningDeadline {
  kind: 'offer' | 'payment' | 'confirm';
  deadlineMs: number;
  windowMs: number;
}

export function runningDeadline(request: Pick<MerchantRequest, 'status' | 'kind' | 'offerDeadlineMs' | 'paymentDeadlineMs' | 'confirmDeadlineMs'>): RunningDeadline | null {
  if (request.status === 'offered' && request.offerDeadlineMs !== null) return { kind: 'offer', deadlineMs: request.offerDeadlineMs, windowMs: C2C_OFFER_WINDOW_MS };
  if (request.status === 'awaiting_payment' && request.paymentDeadlineMs !== null) {
    return { kind: 'payment', deadlineMs: request.paymentDeadlineMs, windowMs: C2C_PAYMENT_WINDOW_MS };
  }
  if (request.status === 'paid' && request.kind === 'withdrawal' && request.confirmDeadlineMs !== null) {
    return { kind: 'confirm', deadlineMs: request.confirmDeadlineMs, windowMs: C2C_CONFIRM_WINDOW_MS };
  }
  return null;
}

/**
 * What is left of a deadline by this device's clock, never more than its window (a clock behind
 * the server's still counts down from the window) and never below zero. The countdown only says
 * it: the server decides when a window is over, so nothing is switched off at zero.
 */
export function remainingMs(deadlineMs: number, nowMs: number, windowMs: number): number {
  return Math.min(windowMs, Math.max(0, deadlineMs - nowMs));
}

/** A countdown as minutes and seconds, rounded up ("0:59", "4:05"; an hour or more "1:00:00"). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A withdrawal's bank details that were given, in the spec's order (empty ones left out). */
export function givenBankDetails(details: Partial<BankDetails> | null): { field: (typeof bankDetailFields)[number]; value: string }[] {
  if (!details) return [];
  return bankDetailFields.flatMap((field) => {
    const value = details[field]?.trim() ?? '';
    return value ? [{ field, value }] : [];
  });
}

/** What the console adds to a refused step (the catalogue's message is shown either way), or null. */
export function stepRefusalKey(error: unknown): MessageKey | null {
  if (!(error instanceof ApiError)) return null;
  if (error.message === errorCatalogue.ORDER_STATE_CHANGED.msg) {
    const problem = (error.data as { problem?: unknown } | null)?.problem;
    return problem === 'too_late' ? 'admin.c2c.refused.tooLate' : 'admin.c2c.refused.changed';
  }
  if (error.message === errorCatalogue.INSUFFICIENT_BALANCE.msg) return 'admin.c2c.refused.float';
  if (error.message === errorCatalogue.RECORD_NOT_FOUND.msg) return 'admin.c2c.refused.gone';
  return null;
}

/** Whether a read was refused because the merchant has not saved a profile yet (the form then starts empty). */
export function isProfileMissing(error: unknown): boolean {
  return error instanceof ApiError && error.message === errorCatalogue.RECORD_NOT_FOUND.msg;
}

/** The float entries' reasons the console names in words; any other is shown as the ledger writes it. */
const floatReasons: Record<string, MessageKey> = {
  'staff.correction': 'admin.c2c.float.reason.correction',
  'c2c.float_hold': 'admin.c2c.float.reason.hold',
  'c2c.release': 'admin.c2c.float.reason.release',
  'c2c.deposit': 'admin.c2c.float.reason.deposit',
  'c2c.withdrawal': 'admin.c2c.float.reason.withdrawal',
};

export function floatReasonKey(reason: string): MessageKey | null {
  return floatReasons[reason] ?? null;
}

// ---- Support ----

/** What resolving an appeal to `outcome` does with the held USDT, for the order's kind. */
export function resolutionEffectKey(kind: MerchantRequest['kind'], outcome: 'complete' | 'fail'): MessageKey {
  if (kind === 'deposit') return outcome === 'complete' ? 'admin.c2c.appeals.effect.depositComplete' : 'admin.c2c.appeals.effect.depositFail';
  return outcome === 'complete' ? 'admin.c2c.appeals.effect.withdrawalComplete' : 'admin.c2c.appeals.effect.withdrawalFail';
}

/** What support's page adds to a refused resolution, or null. */
export function resolveRefusalKey(error: unknown): MessageKey | null {
  if (!(error instanceof ApiError)) return null;
  if (error.message === errorCatalogue.SECOND_APPROVER_REQUIRED.msg) return 'admin.c2c.appeals.refused.secondApprover';
  if (error.message === errorCatalogue.ORDER_STATE_CHANGED.msg) return 'admin.c2c.appeals.refused.changed';
  return null;
}

/** The appeal a record URL names, among those the list shows (staff read C2C appeals only through the list). */
export function appealIn(items: readonly C2cAppeal[] | undefined, requestId: string): C2cAppeal | undefined {
  return items?.find((appeal) => appeal.id === requestId);
}
