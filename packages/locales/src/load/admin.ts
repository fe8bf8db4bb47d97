import type { CatalogueLoader } from '../browser.ts';

/** Loads the back-office's texts (`admin.*`) in one language: a dynamic import, so the build makes one chunk per language. */
export const loadAdminMessages: CatalogueLoader = (locale) =>
  import(`../../catalogues/admin/${locale}.json`).then((module: { default: Record<string, string> }) => module.default);
