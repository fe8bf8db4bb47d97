import type { CatalogueLoader } from '../browser.ts';

// The user app's texts in one language, in three parts (messages.ts, `cataloguePartOf`): dynamic
// imports, so the build makes three chunks per language; the query names the part the build's
// catalogue plugin keeps (precompile.ts). Without that plugin (no build), a part is the whole file.
type CatalogueModule = { default: Record<string, string> };

/** What a visitor sees before logging in: the shell, the public pages, form messages. */
export const loadWebMessages: CatalogueLoader = (locale) =>
  import(`../../catalogues/web/${locale}.json?part=start`).then((module: CatalogueModule) => module.default);

/** What the tab bar and the five tabs show. */
export const loadTabWebMessages: CatalogueLoader = (locale) =>
  import(`../../catalogues/web/${locale}.json?part=tabs`).then((module: CatalogueModule) => module.default);

/** Everything else shown behind the login: the feature areas' own pages. */
export const loadMoreWebMessages: CatalogueLoader = (locale) =>
  import(`../../catalogues/web/${locale}.json?part=more`).then((module: CatalogueModule) => module.default);
