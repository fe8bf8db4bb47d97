import type { CatalogueLoader } from '../browser.ts';

/** Loads the error catalogue's texts (`error.*`), which both apps show in one language: a dynamic import, so the build makes one chunk per language. */
export const loadErrorMessages: CatalogueLoader = (locale) =>
  import(`../../catalogues/error/${locale}.json`).then((module: { default: Record<string, string> }) => module.default);
