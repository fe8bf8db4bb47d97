import { type LocaleCode, localeFallbacks } from '@keel/contracts';

/**
 * The languages whose files a locale's texts are read from: its own and, for fr-pro and it-pro,
 * fr or it. English, the last link of every chain, is left out unless it is the language shown:
 * it is fetched only for a key missing from them (browser.ts). Without i18next, so an app's first
 * script can start these downloads before the rest of the app has arrived.
 */
export function textLocalesOf(locale: LocaleCode): LocaleCode[] {
  return localeFallbacks(locale).filter((each) => each === locale || each !== 'en');
}
