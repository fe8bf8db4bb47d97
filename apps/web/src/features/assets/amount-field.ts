import { decimalAmountSchema } from '@keel/contracts';
import { AmountError, parsePositiveAmount } from '@keel/domain';
import { addDecimal, compareDecimal, isDecimal, normaliseAmountInput, parseDecimal } from '../../shared/format/decimal.ts';

/**
 * The amount field of the money forms (transfer, swap, deposit report, withdrawal). The contracts
 * say only that an amount is a decimal text (`decimalAmountSchema`): how many decimals it may have
 * depends on the asset, and whether it is too much depends on the user's balance, neither of which
 * a contract can know. So the field is the contract's schema plus these rules:
 * - format, the asset's scale and "above zero": the domain's `parsePositiveAmount`, the function the
 *   server's `parseUserAmount` applies to the same text (one rule, read by both sides);
 * - the available balance, and for a withdrawal the channel's published minimum and fee: the
 *   screen's data, checked here only (the server answers with its own refusal if they moved).
 */
export interface AmountLimits {
  /** Decimals of the asset. */
  scale: number;
  /** What the source account can spend, when known. */
  available?: string;
  /** A withdrawal's published fee, held on top of the amount. */
  fee?: string;
  /**
   * A fee that depends on the amount (a transfer to another user: a share of it, rounded up), paid
   * on top; given the amount as typed, already known to be valid at `scale`. Wins over `fee`.
   */
  feeFor?: (amount: string) => string;
  /** A withdrawal's published minimum. */
  min?: string;
}

export type AmountProblem = 'format' | 'tooManyDecimals' | 'notPositive' | 'belowMin' | 'aboveAvailable' | 'aboveAvailableWithFee';

const PREFIX = 'amount:';

const domainProblems: Record<AmountError['problem'], AmountProblem> = {
  format: 'format',
  too_large: 'format',
  too_many_decimals: 'tooManyDecimals',
  not_positive: 'notPositive',
};

/** The first problem of a typed amount (already normalised, not empty), or null. */
export function amountProblem(text: string, limits: AmountLimits): AmountProblem | null {
  try {
    parsePositiveAmount(text, limits.scale);
  } catch (error) {
    if (error instanceof AmountError) return domainProblems[error.problem];
    throw error;
  }
  const amount = parseDecimal(text);
  if (limits.min !== undefined && isDecimal(limits.min) && compareDecimal(amount, parseDecimal(limits.min)) < 0) return 'belowMin';
  if (limits.available === undefined || !isDecimal(limits.available)) return null;
  const available = parseDecimal(limits.available);
  const fee = limits.feeFor ? limits.feeFor(text) : limits.fee;
  if (fee !== undefined && isDecimal(fee)) {
    return compareDecimal(addDecimal(amount, parseDecimal(fee)), available) > 0 ? 'aboveAvailableWithFee' : null;
  }
  return compareDecimal(amount, available) > 0 ? 'aboveAvailable' : null;
}

/**
 * The contract's amount schema with the rules above; its output is the amount as sent (spaces
 * dropped, a decimal comma read as a point). A problem travels as the field error's message
 * (`amount:<problem>`) and is put into words by `useMoneyErrorText`. `limits` is read when the
 * field is checked, so a form whose asset, account or channel can change passes a getter of what
 * is on screen at that moment.
 */
export function amountField(limits: AmountLimits | (() => AmountLimits)) {
  return decimalAmountSchema.transform(normaliseAmountInput).superRefine((text, context) => {
    // Empty: the form says "required" in its own words.
    const problem = text === '' ? 'required' : amountProblem(text, typeof limits === 'function' ? limits() : limits);
    if (problem) context.addIssue({ code: 'custom', message: `${PREFIX}${problem}` });
  });
}

/** The amount problem a field error's message carries, if it is one. */
export function amountProblemOfMessage(message: string | undefined): AmountProblem | undefined {
  if (!message?.startsWith(PREFIX)) return undefined;
  const problem = message.slice(PREFIX.length);
  return problem in problemNames ? (problem as AmountProblem) : undefined;
}

const problemNames: Record<AmountProblem, true> = {
  format: true,
  tooManyDecimals: true,
  notPositive: true,
  belowMin: true,
  aboveAvailable: true,
  aboveAvailableWithFee: true,
};
