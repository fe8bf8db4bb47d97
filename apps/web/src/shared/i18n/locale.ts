import { type LocaleCode, localeCodes, rtlLocales } from '@keel/contracts';

/** The device's language choice (spec section 1: remembered on the device). */
export const LANG_KEY = 'lang';

export function isLocale(value: unknown): value is LocaleCode {
  return typeof value === 'string' && (localeCodes as readonly string[]).includes(value);
}

export function storedLocale(): LocaleCode | null {
  const stored = localStorage.getItem(LANG_KEY);
  return isLocale(stored) ? stored : null;
}

export function initialLocale(): LocaleCode {
  return storedLocale() ?? 'en';
}

/** Sets `<html lang dir>` so the browser, screen readers and CSS logical properties follow the language. */
export function applyDocumentLocale(locale: LocaleCode) {
  document.documentElement.lang = locale === 'fr-pro' ? 'fr' : locale === 'it-pro' ? 'it' : locale;
  document.documentElement.dir = rtlLocales.has(locale) ? 'rtl' : 'ltr';
}
