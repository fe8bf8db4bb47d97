/**
 * Exact decimal arithmetic and display for the amounts and prices the API sends as decimal strings
 * (ADR 0004). A value is held as a `bigint` count of 10^-scale units; nothing here ever turns money
 * into a JS number. Results the user could act on (converted values, totals) round down, so an
 * amount is never shown larger than it is (ADR 0011).
 */

export interface Decimal {
  /** The value in units of 10^-scale; signed. */
  readonly minor: bigint;
  /** Digits after the point. */
  readonly scale: number;
}

export class DecimalError extends Error {
  constructor(text: string) {
    super(`not a decimal: "${text.slice(0, 40)}"`);
    this.name = 'DecimalError';
  }
}

/** Bound on the digits we accept, so a hostile string cannot cost unbounded work. */
const MAX_DIGITS = 80;
const SIGNED_DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** Reads a signed decimal string ("-12.50", "+0.1", "3") exactly, keeping every written decimal. */
export function parseDecimal(text: string): Decimal {
  const match = SIGNED_DECIMAL.exec(text.trim());
  if (!match || text.length > MAX_DIGITS) throw new DecimalError(text);
  const fraction = match[3] ?? '';
  const magnitude = BigInt(`${match[2]}${fraction}`);
  return { minor: match[1] === '-' ? -magnitude : magnitude, scale: fraction.length };
}

/** True when `text` is a decimal string parseDecimal accepts. */
export function isDecimal(text: string): boolean {
  return SIGNED_DECIMAL.test(text.trim()) && text.length <= MAX_DIGITS;
}

const pow10 = (digits: number) => 10n ** BigInt(digits);

/** Integer division rounding towards minus infinity (bigint `/` truncates towards zero). */
function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator !== 0n && numerator < 0n !== denominator < 0n ? quotient - 1n : quotient;
}

/** The same value at another scale; fewer digits round towards minus infinity. */
export function rescale(value: Decimal, scale: number): Decimal {
  if (scale >= value.scale) return { minor: value.minor * pow10(scale - value.scale), scale };
  return { minor: floorDiv(value.minor, pow10(value.scale - scale)), scale };
}

export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { minor: rescale(a, scale).minor + rescale(b, scale).minor, scale };
}

/** a × b at `scale` decimals, rounded down (towards minus infinity). */
export function mulDecimal(a: Decimal, b: Decimal, scale: number): Decimal {
  return rescale({ minor: a.minor * b.minor, scale: a.scale + b.scale }, scale);
}

export function compareDecimal(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const left = rescale(a, scale).minor;
  const right = rescale(b, scale).minor;
  return left < right ? -1 : left > right ? 1 : 0;
}

export function signOf(value: Decimal): -1 | 0 | 1 {
  return value.minor < 0n ? -1 : value.minor > 0n ? 1 : 0;
}

/** The canonical string: exactly `scale` decimals, "-" for negatives. */
export function decimalToString(value: Decimal): string {
  const negative = value.minor < 0n;
  const digits = (negative ? -value.minor : value.minor).toString().padStart(value.scale + 1, '0');
  const whole = digits.slice(0, digits.length - value.scale);
  const fraction = digits.slice(digits.length - value.scale);
  return `${negative ? '-' : ''}${whole}${value.scale > 0 ? `.${fraction}` : ''}`;
}

/** Digits after the point in a decimal string as the API writes it, i.e. the asset's scale. */
export function scaleOfText(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/**
 * Value in USDT (6 decimals) of `amount` at `priceUsdt` (USDT per unit), rounded down. USDT is
 * priced at exactly 1 by passing "1".
 */
export const USDT_SCALE = 6;
export function valueInUsdt(amount: string, priceUsdt: string): Decimal {
  return mulDecimal(parseDecimal(amount), parseDecimal(priceUsdt), USDT_SCALE);
}

/** Basis points as a percent string: 25 → "0.25". Integers only, so no rounding. */
export function bpsToPercent(bps: number): string {
  return decimalToString({ minor: BigInt(bps), scale: 2 });
}

/**
 * What a user typed into an amount field, made canonical: spaces dropped, and a lone comma read as
 * the decimal separator (the decimal key of German, French or Russian keyboards). Grouping is not
 * guessed: "1,000.5" stays as typed and is then refused.
 */
export function normaliseAmountInput(text: string): string {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (!compact.includes('.') && compact.split(',').length === 2) return compact.replace(',', '.');
  return compact;
}

// ---- display ----

export interface Separators {
  group: string;
  decimal: string;
}

/**
 * CLDR's separators of the app's languages with Latin digits, as Intl gives them (a unit test
 * compares every row with Intl.NumberFormat). Known up front because the first
 * Intl.NumberFormat a page makes loads ICU's number data on the main thread, inside the render
 * that shows the first amount: 130 ms of the home screen's first render on a phone (ADR 0025).
 */
export const appLocaleSeparators: Readonly<Record<string, Separators>> = {
  en: { group: ',', decimal: '.' },
  de: { group: '.', decimal: ',' },
  es: { group: '.', decimal: ',' },
  fr: { group: '\u202f', decimal: ',' },
  it: { group: '.', decimal: ',' },
  ru: { group: '\u00a0', decimal: ',' },
  'zh-Hans': { group: ',', decimal: '.' },
  'zh-Hant': { group: ',', decimal: '.' },
  ja: { group: ',', decimal: '.' },
  vi: { group: '.', decimal: ',' },
  ar: { group: ',', decimal: '.' },
};

const separatorCache = new Map<string, Separators>(Object.entries(appLocaleSeparators));

/** The locale's grouping and decimal separators, with Latin digits (ADR 0011). */
export function separatorsFor(locale: string): Separators {
  const cached = separatorCache.get(locale);
  if (cached) return cached;
  let found: Separators = { group: ',', decimal: '.' };
  try {
    // The sample is a literal, not money: only its separators are read.
    const parts = new Intl.NumberFormat(locale, { numberingSystem: 'latn', useGrouping: true }).formatToParts(1234567.5);
    found = {
      group: parts.find((part) => part.type === 'group')?.value ?? ',',
      decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
    };
  } catch {
    // An unknown locale keeps the plain separators.
  }
  separatorCache.set(locale, found);
  return found;
}

/** The BCP 47 tag for our locale codes: the formal variants format like their base language. */
export function intlLocale(locale: string): string {
  return locale.replace(/-pro$/, '');
}

export interface DisplayOptions {
  /** Most decimals shown; further digits are cut (towards zero), never rounded up. */
  maxFractionDigits?: number;
  /** Fewest decimals shown; zeros pad up to it. Default: trailing zeros beyond it are dropped. */
  minFractionDigits?: number;
  /** 'always' writes "+" before positive values (records, changes). */
  signDisplay?: 'auto' | 'always';
  /** Grouping of thousands (default on). */
  grouping?: boolean;
}

/**
 * A decimal string for display in `locale`: exact, grouped, with the locale's separators and Latin
 * digits. Not a parser's input: the output is for eyes only.
 */
export function formatDecimal(text: string, locale: string, options: DisplayOptions = {}): string {
  if (!isDecimal(text)) return text;
  const { maxFractionDigits = 8, minFractionDigits = 0, signDisplay = 'auto', grouping = true } = options;
  const value = parseDecimal(text);
  const sign = signOf(value);
  const magnitude = { minor: sign < 0 ? -value.minor : value.minor, scale: value.scale };
  // Cut towards zero: the magnitude rounds down, whatever the sign.
  const cut = rescale(magnitude, Math.min(magnitude.scale, maxFractionDigits));
  const canonical = decimalToString(cut);
  const [whole = '0', rawFraction = ''] = canonical.split('.');
  let fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length < minFractionDigits) fraction = fraction.padEnd(minFractionDigits, '0');
  const separators = separatorsFor(intlLocale(locale));
  const grouped = grouping ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, separators.group) : whole;
  const shownZero = cut.minor === 0n;
  const prefix = sign < 0 && !shownZero ? '-' : sign > 0 && signDisplay === 'always' && !shownZero ? '+' : '';
  return `${prefix}${grouped}${fraction ? `${separators.decimal}${fraction}` : ''}`;
}

/** How many decimals to show for an asset: its scale, at most 8 (ETH has 18; nobody reads them). */
export function displayDecimalsFor(asset: string): { minFractionDigits: number; maxFractionDigits: number } {
  if (asset === 'USDT') return { minFractionDigits: 2, maxFractionDigits: 6 };
  return { minFractionDigits: 2, maxFractionDigits: 8 };
}
