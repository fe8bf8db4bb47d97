/**
 * Locales of the 13 catalogues (decisions page). Kept here so server and apps agree; in a module
 * without zod, so an app's first script can name them without the contract schemas (ADR 0025).
 */
export const localeCodes = [
  'en', 'de', 'es', 'fr', 'fr-pro', 'it', 'it-pro', 'ru', 'zh-Hans', 'zh-Hant', 'ja', 'vi', 'ar',
] as const;
export type LocaleCode = (typeof localeCodes)[number];

/** Locales written right to left. */
export const rtlLocales: ReadonlySet<LocaleCode> = new Set(['ar']);

/**
 * Fallback chain per locale, tried key by key: the formal-register variants fall back to their
 * base language, and every locale ends at English (decisions page, "Languages").
 */
export function localeFallbacks(locale: LocaleCode): LocaleCode[] {
  if (locale === 'fr-pro') return ['fr-pro', 'fr', 'en'];
  if (locale === 'it-pro') return ['it-pro', 'it', 'en'];
  if (locale === 'en') return ['en'];
  return [locale, 'en'];
}

/** Each locale's name in its own language, for the switcher. */
export const localeNames: Record<LocaleCode, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  'fr-pro': 'Français (professionnel)',
  it: 'Italiano',
  'it-pro': 'Italiano (professionale)',
  ru: 'Русский',
  'zh-Hans': '简体中文',
  'zh-Hant': '繁體中文',
  ja: '日本語',
  vi: 'Tiếng Việt',
  ar: 'العربية',
};
