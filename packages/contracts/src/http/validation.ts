/**
 * How a failed input rule is named, so that the server's "parameter error" and the apps' forms
 * speak of it the same way and the apps can say it in the user's language (ADR 0027).
 *
 * A problem is a `rule` and the numbers it needs (`{ rule: 'tooShort', values: { minimum: 6 } }`);
 * the apps translate it as the message `web.validation.<rule>`. Two kinds of rules:
 * - generic ones, derived from the zod issue's code and limits (`describeIssue`): required, too
 *   short, too long, wrong format, not a number …;
 * - the contracts' own messages: every custom message a contract gives zod is a value of
 *   `validationMessages` (contracts write `validationMessages.sixDigits`, never a loose string),
 *   so its English text (what the API documents and answers) names one stable rule. A test walks
 *   every contract and fails on a custom message missing here, or missing a translation.
 */

/** The contracts' own messages, by rule. The English text is the API's; never reuse one for two rules. */
export const validationMessages = {
  required: 'this field is required',
  idFormat: 'must be a positive integer id',
  idCursorFormat: 'must be 0 or a positive integer id',
  noControlCharacters: 'no control characters',
  noMarkup: 'no control characters or angle brackets',
  noControlCharactersButLineBreaks: 'no control characters other than line breaks',
  usernameFormat: 'must be 6 to 32 letters or digits',
  passwordLength: 'must be at least 6 characters',
  passwordTooLong: 'must be at most 128 characters',
  passwordCharacters: 'must contain a letter or a digit',
  agreementRequired: 'the user agreement must be accepted',
  oneOfUsernameEmailPhone: 'give exactly one of username, email or phone',
  emailFormat: 'incorrect email format',
  phoneFormat: 'an international number: + and 8 to 15 digits',
  sixDigits: 'six digits',
  antiPhishingFormat: '4 to 20 letters or digits',
  contactValue: 'use 2 to 64 characters without < or >',
  telegramHandle: 'a Telegram username: 5 to 32 letters, digits or underscores, optionally after @',
  wechatId: 'a WeChat ID: 6 to 20 letters, digits, underscores or dashes, starting with a letter',
  lineId: 'a LINE ID: 4 to 20 letters, digits, dots, dashes or underscores',
  countryCode: 'an ISO 3166 country code, e.g. DE',
  iban: 'not a valid IBAN of this country',
  routingNumber: 'not a valid 9-digit routing number',
  swiftCode: 'not a valid SWIFT (BIC) code of this country',
  cardNumber: 'not a valid card number',
  bankAccountNumber: 'an account number of 4 to 34 letters or digits (4 to 17 digits in the US)',
  idNumberFormat: '4 to 40 letters, digits, spaces or dashes',
  rejectionReason: 'a rejection needs the reason the user will read',
  atLeastOneRole: 'at least one role',
  eachRoleOnce: 'each role at most once',
  differentAccounts: 'the target account must differ from the source account',
  differentAssets: 'the target currency must differ from the source',
  unknownAsset: 'unknown asset',
  ifscCode: 'an IFSC code: 4 letters, 0, then 6 letters or digits',
  bankAccountFormat: '9 to 18 digits',
  staffUsernameFormat: 'must be 3 to 32 letters, digits, dots, dashes or underscores, starting with a letter or digit',
  staffPasswordLength: 'must be at least 10 characters',
  currencyCode: 'an ISO 4217 currency code, e.g. INR',
  appealReason: 'say what happened, at least 5 characters',
  appealNote: 'a note both sides will read',
  textOrImage: 'send a text or an image, one of them',
  marketSymbol: 'a symbol like BTC/USDT',
  noDuplicateSymbols: 'no duplicate symbols',
  timeOfDay: 'a time of day as HH:MM, 00:00 to 23:59',
  signedAmount: 'a decimal amount other than zero; negative takes money back',
  correctionTarget: 'a user correction names a user and an account; a house correction names a house account',
  contentHtml: 'no HTML: write Markdown',
  contentScriptUrl: 'a link may not run code',
  contentLinkNotAllowed: 'links start with /, https://, http:// or mailto:',
  contentImageNotAllowed: 'images come from Keel’s content images only',
  contentHeadingLevel: 'headings are ## or ###: the title is the only level-1 heading',
  contentSlug: 'lowercase letters, digits and dashes, starting with a letter or digit',
  contentLinkPath: 'an in-app path starting with /',
} as const;

export type CustomValidationRule = keyof typeof validationMessages;

/** Rules derived from a zod issue's code and limits, for rules that carry no message of their own. */
export const genericValidationRules = [
  'required',
  'tooShort',
  'tooLong',
  'tooSmall',
  'tooBig',
  'greaterThan',
  'lessThan',
  'tooFew',
  'tooMany',
  'format',
  'notANumber',
  'notAWholeNumber',
  'notMultipleOf',
  'choose',
  'invalid',
] as const;

export type ValidationRule = CustomValidationRule | (typeof genericValidationRules)[number];

/** Every rule a problem may name: each has the message `web.validation.<rule>` in every catalogue. */
export const validationRules: readonly ValidationRule[] = [
  ...new Set<ValidationRule>([...genericValidationRules, ...(Object.keys(validationMessages) as CustomValidationRule[])]),
];

export interface FieldProblem {
  rule: ValidationRule;
  /** The numbers the message names (a minimum, a maximum, a divisor). */
  values?: Record<string, number | string>;
}

const ruleByMessage = new Map<string, CustomValidationRule>(
  (Object.entries(validationMessages) as [CustomValidationRule, string][]).map(([rule, message]) => [message, rule]),
);

/** The rule a contract's custom message stands for, or undefined for any other text. */
export function ruleOfMessage(message: string): CustomValidationRule | undefined {
  return ruleByMessage.get(message);
}

export function isValidationRule(value: unknown): value is ValidationRule {
  return typeof value === 'string' && (validationRules as readonly string[]).includes(value);
}

/** The parts of a zod 4 issue this reads (a raw issue inside an error map, or a finished one). */
export interface IssueLike {
  code: string;
  message?: string;
  path?: readonly PropertyKey[];
  input?: unknown;
  expected?: string;
  origin?: string;
  format?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  divisor?: number | bigint;
}

const asNumber = (value: number | bigint | undefined): number | string =>
  typeof value === 'bigint' ? (value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString()) : (value ?? 0);

/** No value, or text with nothing but spaces in it. */
export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Names the problem of one zod issue as an error map sees it (with its `input`). Nothing typed is
 * "required"; otherwise a contract's own message wins (it is the rule's own wording), and the
 * issue's code and limits decide the rest.
 */
export function describeIssue(issue: IssueLike): FieldProblem {
  const input = issue.input;
  // Nothing typed is "required", whatever rule the empty value broke first (a refinement across
  // fields, 'custom', says what it says: "give exactly one of …").
  if (issue.code !== 'custom' && isEmpty(input)) return { rule: 'required' };
  const own = issue.message === undefined ? undefined : ruleOfMessage(issue.message);
  if (own) return { rule: own };
  const isText = issue.origin === 'string';
  const isList = issue.origin === 'array' || issue.origin === 'set';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int') return { rule: 'notAWholeNumber' };
      if (issue.expected === 'number' || issue.expected === 'bigint') return { rule: 'notANumber' };
      return { rule: 'invalid' };
    case 'too_small': {
      const minimum = asNumber(issue.minimum);
      if ((isText || isList) && minimum === 1) return { rule: 'required' };
      if (isText) return { rule: 'tooShort', values: { minimum } };
      if (isList) return { rule: 'tooFew', values: { minimum } };
      return issue.inclusive === false ? { rule: 'greaterThan', values: { minimum } } : { rule: 'tooSmall', values: { minimum } };
    }
    case 'too_big': {
      const maximum = asNumber(issue.maximum);
      if (isText) return { rule: 'tooLong', values: { maximum } };
      if (isList) return { rule: 'tooMany', values: { maximum } };
      return issue.inclusive === false ? { rule: 'lessThan', values: { maximum } } : { rule: 'tooBig', values: { maximum } };
    }
    case 'invalid_format':
      return { rule: issue.format === 'email' ? 'emailFormat' : 'format' };
    case 'not_multiple_of':
      return { rule: 'notMultipleOf', values: { divisor: asNumber(issue.divisor) } };
    case 'invalid_value':
      return { rule: 'choose' };
    default:
      return { rule: 'invalid' };
  }
}

/**
 * One entry of a "parameter error" answer's `data.fields`: where (`body.amount`) and the English
 * message; a contract's own message names its rule (`ruleOfMessage`), any other is zod's text.
 */
export interface ParameterErrorField {
  field: string;
  message: string;
}

/** A `data.fields` entry for a rule a use case checks itself (e.g. "incorrect email format"). */
export function parameterErrorField(field: string, rule: CustomValidationRule): ParameterErrorField {
  return { field, message: validationMessages[rule] };
}
