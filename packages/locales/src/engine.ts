import { errorKeyFromMsg, type LocaleCode, localeCodes, localeFallbacks } from '@keel/contracts';
import { createInstance, type i18n, type InitOptions } from 'i18next';
import ICU, { type IcuInstance } from 'i18next-icu';
import type { MessageKey } from './messages.ts';

/**
 * The locale Intl formats a language's plurals, numbers and units with: the formal variants are
 * French and Italian, and digits stay Latin in every language (as amounts are, ADR 0011).
 */
export function intlLocale(locale: string): string {
  return `${locale.replace(/-pro$/, '')}-u-nu-latn`;
}

/**
 * Characters that make a text more than plain text to the ICU parser (arguments, `#` in plurals,
 * apostrophe quoting, tags). A text without any of them reads the same parsed or not.
 */
export const icuSyntax = /[{}#'<>]/;

type IcuFormat = IcuInstance & { parse(message: unknown, ...rest: unknown[]): unknown };

/**
 * i18next-icu, except that a plain text is handed out as it is: most messages have no argument,
 * and the apps' build ships every other message already parsed (`precompile.ts`), so the browser
 * never needs the ICU parser. On the server, ICU messages are still parsed on first use.
 */
function icuFormat(): IcuFormat {
  const format = new ICU() as IcuFormat;
  const formatIcu = format.parse.bind(format);
  format.parse = (message, ...rest) => (typeof message === 'string' && !icuSyntax.test(message) ? message : formatIcu(message, ...rest));
  return format;
}

/**
 * One i18next instance with ICU messages (i18next-icu on intl-messageformat) and the decisions
 * page's fallback chain, tried key by key: fr-pro → fr → en, it-pro → it → en, others → en.
 * Keys are flat (`web.assets.title`), so neither `.` nor `:` splits them.
 */
export function createMessageFormatter(options: Pick<InitOptions, 'resources' | 'lng' | 'parseMissingKeyHandler'> = {}): i18n {
  const instance = createInstance().use(icuFormat());
  // Synchronous (initAsync: false): the resources given are usable as soon as this returns.
  void instance.init({
    ...options,
    supportedLngs: [...localeCodes],
    fallbackLng: (code: string) => localeFallbacks(code as LocaleCode).slice(1),
    load: 'currentOnly',
    keySeparator: false,
    nsSeparator: false,
    // The ICU plugin formats; React escapes what it renders.
    interpolation: { escapeValue: false },
    i18nFormat: {
      parseLngForICU: intlLocale,
      // A message that cannot be formatted (a value missing) shows its text rather than nothing;
      // the catalogue tests keep every message parseable.
      parseErrorHandler: (_error: unknown, _key: string, text: string) => text,
    },
    initAsync: false,
  } as InitOptions);
  return instance;
}

/** The catalogue key of a server message (the error catalogue's English `msg`), or the generic error. */
export function serverMessageKey(msg: string): MessageKey {
  const key = errorKeyFromMsg(msg);
  return key ? (`error.${key}` as MessageKey) : 'error.UNKNOWN';
}
