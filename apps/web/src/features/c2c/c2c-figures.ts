import type { ContractData, getC2cRequestContract, ValidationRule } from '@keel/contracts';
import {
  AmountError,
  type BankDetailProblem,
  type BankDetails,
  bankDetailFields,
  bankDetailsProblems,
  C2C_CONFIRM_WINDOW_MS,
  C2C_COUNTRIES,
  C2C_PAYMENT_WINDOW_MS,
  type C2cCountry,
  type C2cKind,
  type C2cStatus,
  c2cSpecState,
  fiatOfUsdt,
  formatAmount,
  isC2cCountry,
  parseAmount,
  parsePositiveAmount,
  usdtOfFiat,
} from '@keel/domain';
import type { MessageKey } from '@keel/locales';

/**
 * The pure parts of the C2C screens (issue 19, ADR 0043): the live conversion between fiat and
 * USDT at a price by the domain's own functions (rounded in the merchant's favour, as the server
 * does), the amount's problems against the merchants' limits, the spec's words for each state, the
 * deadline that matters now, which steps the user has, and the bank details' problems by the
 * domain's `bankDetailsProblems` (the function the server applies), as the forms' rules name them.
 */

export type C2cRequest = ContractData<typeof getC2cRequestContract>;

/** Fiat amounts and prices are in hundredths (the server's `fiatText`); USDT has six decimals. */
export const C2C_FIAT_SCALE = 2;
export const C2C_USDT_SCALE = 6;

/** Whether the amount typed is the fiat (to pay or be paid) or the USDT (to receive or give). */
export type C2cAmountIn = 'fiat' | 'usdt';

export interface C2cFigures {
  usdtMinor: bigint;
  fiatMinor: bigint;
  /** The USDT, six decimals. */
  usdt: string;
  /** The fiat, two decimals. */
  fiat: string;
}

/** A price as the API writes it (fiat per USDT, two decimals at most) in hundredths, or null when there is none. */
export function priceMinorOf(price: string | null | undefined): bigint | null {
  if (!price) return null;
  try {
    return parsePositiveAmount(price, C2C_FIAT_SCALE);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
}

/**
 * The two amounts of an order of `amount` (as typed, normalised) at `price`: the one typed, and the
 * other computed by the domain's conversion for `kind` (a deposit: the USDT of a fiat amount
 * rounded down, the fiat of a USDT amount rounded up; a withdrawal the other way round). Null while
 * the amount is not a positive amount at its scale or there is no price. The USDT of a tiny fiat
 * amount may be zero (`c2cAmountProblem` says "too small").
 */
export function c2cFigures(kind: C2cKind, amountIn: C2cAmountIn, amount: string, price: string | null | undefined): C2cFigures | null {
  const priceMinor = priceMinorOf(price);
  if (priceMinor === null) return null;
  let typed: bigint;
  try {
    typed = parsePositiveAmount(amount, amountIn === 'fiat' ? C2C_FIAT_SCALE : C2C_USDT_SCALE);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
  const usdtMinor = amountIn === 'usdt' ? typed : usdtOfFiat(kind, typed, priceMinor);
  const fiatMinor = amountIn === 'fiat' ? typed : fiatOfUsdt(kind, typed, priceMinor);
  return { usdtMinor, fiatMinor, usdt: formatAmount(usdtMinor, C2C_USDT_SCALE), fiat: formatAmount(fiatMinor, C2C_FIAT_SCALE) };
}

export type C2cAmountProblem = 'format' | 'tooManyDecimals' | 'notPositive' | 'tooSmall' | 'belowMin' | 'aboveMax' | 'aboveAvailable';

export interface C2cAmountLimits {
  kind: C2cKind;
  amountIn: C2cAmountIn;
  /** The best price shown (null: no merchant, nothing to judge against). */
  price: string | null;
  /** The smallest and largest order in USDT some online merchant takes (null: unknown). */
  minUsdt: string | null;
  maxUsdt: string | null;
  /** A withdrawal: the fiat account's available USDT, which the order holds. */
  available?: string;
}

const domainProblems: Record<AmountError['problem'], C2cAmountProblem> = {
  format: 'format',
  too_large: 'format',
  too_many_decimals: 'tooManyDecimals',
  not_positive: 'notPositive',
};

function usdtMinorOf(text: string | null | undefined): bigint | null {
  if (text === null || text === undefined) return null;
  try {
    return parseAmount(text, C2C_USDT_SCALE);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
}

/**
 * The first problem of a typed amount (normalised, not empty), or null: its format at the scale
 * of what it is (fiat: two decimals, USDT: six), then the USDT it makes against the limits the
 * merchants online take, then (a withdrawal) against the fiat account's available USDT.
 */
export function c2cAmountProblem(text: string, limits: C2cAmountLimits): C2cAmountProblem | null {
  try {
    parsePositiveAmount(text, limits.amountIn === 'fiat' ? C2C_FIAT_SCALE : C2C_USDT_SCALE);
  } catch (error) {
    if (error instanceof AmountError) return domainProblems[error.problem];
    throw error;
  }
  const figures = c2cFigures(limits.kind, limits.amountIn, text, limits.price);
  if (figures === null) return null;
  if (figures.usdtMinor <= 0n) return 'tooSmall';
  const min = usdtMinorOf(limits.minUsdt);
  const max = usdtMinorOf(limits.maxUsdt);
  if (min !== null && figures.usdtMinor < min) return 'belowMin';
  if (max !== null && figures.usdtMinor > max) return 'aboveMax';
  const available = usdtMinorOf(limits.available);
  if (available !== null && figures.usdtMinor > available) return 'aboveAvailable';
  return null;
}

/** The spec's words for each state (section 4), by the domain's `c2cSpecState`. */
const specStateKeys: Record<string, MessageKey> = {
  'matching a merchant': 'web.c2c.state.matching',
  'waiting to be assigned': 'web.c2c.state.waiting',
  'to be paid': 'web.c2c.state.toBePaid',
  'to be reviewed': 'web.c2c.state.toBeReviewed',
  success: 'web.c2c.state.success',
  failed: 'web.c2c.state.failed',
};

export function c2cStateKey(status: C2cStatus): MessageKey {
  return specStateKeys[c2cSpecState[status]] ?? 'web.c2c.state.failed';
}

export function c2cStateTone(status: C2cStatus): 'pending' | 'good' | 'bad' {
  return status === 'succeeded' ? 'good' : status === 'failed' ? 'bad' : 'pending';
}

export function isOpen(status: C2cStatus): boolean {
  return status !== 'succeeded' && status !== 'failed';
}

const messageKeys = {
  deposit: {
    matching: 'web.c2c.msg.deposit.matching',
    offered: 'web.c2c.msg.deposit.offered',
    awaiting_payment: 'web.c2c.msg.deposit.awaitingPayment',
    paid: 'web.c2c.msg.deposit.paid',
    appealing: 'web.c2c.msg.deposit.appealing',
    succeeded: 'web.c2c.msg.deposit.succeeded',
  },
  withdrawal: {
    matching: 'web.c2c.msg.withdrawal.matching',
    offered: 'web.c2c.msg.withdrawal.offered',
    awaiting_payment: 'web.c2c.msg.withdrawal.awaitingPayment',
    paid: 'web.c2c.msg.withdrawal.paid',
    appealing: 'web.c2c.msg.withdrawal.appealing',
    succeeded: 'web.c2c.msg.withdrawal.succeeded',
  },
} as const satisfies Record<C2cKind, Record<Exclude<C2cStatus, 'failed'>, MessageKey>>;

const failedKeys = {
  deposit: {
    unmatched: 'web.c2c.msg.deposit.failed.unmatched',
    unpaid: 'web.c2c.msg.deposit.failed.unpaid',
    cancelled: 'web.c2c.msg.deposit.failed.cancelled',
    support: 'web.c2c.msg.failed.support',
  },
  withdrawal: {
    unmatched: 'web.c2c.msg.withdrawal.failed.unmatched',
    unpaid: 'web.c2c.msg.withdrawal.failed.unpaid',
    cancelled: 'web.c2c.msg.withdrawal.failed.cancelled',
    support: 'web.c2c.msg.failed.support',
  },
} as const satisfies Record<C2cKind, Record<NonNullable<C2cRequest['failReason']>, MessageKey>>;

/** What the order's state means for its user and what to do now, in the user's words. */
export function c2cMessageKey(request: Pick<C2cRequest, 'kind' | 'status' | 'failReason'>): MessageKey {
  if (request.status === 'failed') return failedKeys[request.kind][request.failReason ?? 'unmatched'];
  return messageKeys[request.kind][request.status];
}

export interface C2cDeadline {
  /** Which deadline: the end of matching, of the payment window, or of a paid withdrawal's time to answer. */
  kind: 'match' | 'payment' | 'confirm';
  deadlineMs: number;
  /** Time left on the device's clock, never more than the window (a device clock behind the server's). */
  remainingMs: number;
}

/** The deadline that matters in the order's state now, or null when none runs. */
export function c2cDeadline(request: Pick<C2cRequest, 'kind' | 'status' | 'createdAtMs' | 'matchDeadlineMs' | 'paymentDeadlineMs' | 'confirmDeadlineMs'>, nowMs: number): C2cDeadline | null {
  const of = (kind: C2cDeadline['kind'], deadlineMs: number, windowMs: number): C2cDeadline => ({
    kind,
    deadlineMs,
    remainingMs: Math.max(0, Math.min(deadlineMs - nowMs, windowMs)),
  });
  switch (request.status) {
    case 'matching':
    case 'offered':
      return of('match', request.matchDeadlineMs, Math.max(0, request.matchDeadlineMs - request.createdAtMs));
    case 'awaiting_payment':
      return request.paymentDeadlineMs === null ? null : of('payment', request.paymentDeadlineMs, C2C_PAYMENT_WINDOW_MS);
    case 'paid':
      return request.kind === 'withdrawal' && request.confirmDeadlineMs !== null ? of('confirm', request.confirmDeadlineMs, C2C_CONFIRM_WINDOW_MS) : null;
    default:
      return null;
  }
}

export interface C2cActions {
  /** Call the order off: a deposit until the user has paid, a withdrawal until a merchant accepted. */
  cancel: boolean;
  /** A deposit's user says they paid, with the screenshot (only while the payment window is open). */
  markPaid: boolean;
  /** A withdrawal's user confirms the fiat arrived. */
  confirm: boolean;
  /** Send a paid order to support with a reason. */
  appeal: boolean;
}

/** The steps the user has on the order now (the server's machine, `c2cCommandActor`, decides; this only offers them). */
export function c2cActions(request: Pick<C2cRequest, 'kind' | 'status' | 'paymentDeadlineMs'>, nowMs: number): C2cActions {
  const { kind, status } = request;
  const beforeAcceptance = status === 'matching' || status === 'offered';
  const paymentOpen = status === 'awaiting_payment' && (request.paymentDeadlineMs === null || nowMs < request.paymentDeadlineMs);
  return {
    cancel: beforeAcceptance || (kind === 'deposit' && status === 'awaiting_payment'),
    markPaid: kind === 'deposit' && paymentOpen,
    confirm: kind === 'withdrawal' && status === 'paid',
    appeal: status === 'paid',
  };
}

/** A countdown as "m:ss" (or "h:mm:ss"); a partial second counts as a whole one. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const ss = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}

/** An instant as the device's local "HH:MM" (the confirm deadline: "if you do not answer by HH:MM …"). */
export function clockText(ms: number): string {
  const date = new Date(ms);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** The order's page: a deposit's or a withdrawal's. */
export function c2cOrderPath(request: Pick<C2cRequest, 'id' | 'kind'>): string {
  return request.kind === 'deposit' ? `/assets/C2CDeposit/${request.id}` : `/assets/C2CWithdrawalInfo/${request.id}`;
}

/** `/assets/C2CWithdrawal/{country}`: a served country's code, anything else (`select`) the picker. */
export function c2cWithdrawalPath(country?: string | null): string {
  return `/assets/C2CWithdrawal/${country && isC2cCountry(country) ? country : 'select'}`;
}

export function c2cCountryOf(param: string | null | undefined): C2cCountry | null {
  const code = param?.toUpperCase();
  return code && isC2cCountry(code) ? code : null;
}

/** Whether the country's banks use IBANs (the account number is then the IBAN). */
export function usesIban(country: C2cCountry): boolean {
  return C2C_COUNTRIES[country].ibanLength !== null;
}

/** The bank detail fields that must be given for `country` (the domain's rule: the name, the bank, the account; in the US the routing number). */
export function requiredBankFields(country: C2cCountry): ReadonlySet<keyof BankDetails> {
  return new Set<keyof BankDetails>(country === 'US' ? ['payeeName', 'bankName', 'accountNumber', 'routingNumber'] : ['payeeName', 'bankName', 'accountNumber']);
}

/** Each problem as the rule the server names it by in "parameter error" (`body.bankDetails.<field>`). */
export const bankProblemRules: Record<BankDetailProblem, ValidationRule> = {
  required: 'required',
  invalid_iban: 'iban',
  invalid_routing_number: 'routingNumber',
  invalid_swift: 'swiftCode',
  invalid_card_number: 'cardNumber',
  invalid_account_number: 'bankAccountNumber',
};

/** The bank details' problems for `country`, field by field in the form's order, as validation rules. */
export function bankDetailIssues(country: C2cCountry, details: BankDetails): { field: keyof BankDetails; rule: ValidationRule }[] {
  const problems = bankDetailsProblems(country, details);
  return bankDetailFields.flatMap((field) => {
    const problem = problems[field];
    return problem ? [{ field, rule: bankProblemRules[problem] }] : [];
  });
}

export const emptyBankDetails: BankDetails = Object.fromEntries(bankDetailFields.map((field) => [field, ''])) as unknown as BankDetails;

/** Saved details (null: none) as the form's values, every field a text. */
export function bankDetailsValues(saved: Partial<BankDetails> | null | undefined): BankDetails {
  const values = { ...emptyBankDetails };
  for (const field of bankDetailFields) {
    const value = saved?.[field];
    if (typeof value === 'string') values[field] = value;
  }
  return values;
}

const asData = (data: unknown): Record<string, unknown> => (data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {});

/** C2C_ORDER_UNFINISHED's `data.orderId`: the order to complete first. */
export function unfinishedOrderIdOf(data: unknown): string | null {
  const id = asData(data).orderId;
  return typeof id === 'string' && /^[1-9][0-9]{0,18}$/.test(id) ? id : null;
}

/** C2C_PRICE_CHANGED's `data.price`: the best price now. */
export function changedPriceOf(data: unknown): string | null {
  const price = asData(data).price;
  return typeof price === 'string' && priceMinorOf(price) !== null ? price : null;
}
