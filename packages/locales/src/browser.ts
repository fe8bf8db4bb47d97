import type { LocaleCode } from '@keel/contracts';
import type { i18n, TOptions } from 'i18next';
import IntlMessageFormat from 'intl-messageformat';
import { createMessageFormatter, serverMessageKey } from './engine.ts';
import { textLocalesOf } from './load/chain.ts';
import type { MessageKey, MessageValues } from './messages.ts';

export { intlLocale } from './engine.ts';
export { cataloguePartOf } from './messages.ts';
export type { Catalogue, MessageKey, MessageValues } from './messages.ts';

// intl-messageformat asks ICU which locales it supports whenever it builds a message
// (Intl.NumberFormat.supportedLocalesOf, then a new Intl.Locale); the first ask loads ICU's locale
// data on the main thread, a tenth of the login screen's script time on a phone. What it finds is
// used only to parse a message and by resolvedOptions(): in the browser every message arrives
// parsed (precompile.ts) and nothing calls resolvedOptions(), while formatting uses the locale tag
// it was given (intlLocale). So the browser does not ask; the server still does.
IntlMessageFormat.resolveLocale = () => undefined;

/** A translate function as the facades type it: one of our keys, ICU values, a string. */
export type MessageFunction = (key: MessageKey, values?: MessageValues) => string;

/** Loads one area's texts in one language (see `load/*.ts`: a dynamic import, a chunk per language). */
export type CatalogueLoader = (locale: LocaleCode) => Promise<Record<string, string>>;

/** An app's messages, downloaded one language at a time (ADR 0024). */
export interface LazyMessages {
  /** The i18next instance react-i18next renders from. */
  readonly i18n: i18n;
  /** The language shown, or null until the first one is loaded. */
  current(): LocaleCode | null;
  /**
   * Loads what `locale` needs (its own file and, for fr-pro and it-pro, fr or it), then shows it:
   * until then the previous language stays, so no key or English text flashes. When several
   * switches overlap, the last one asked for wins.
   */
  switchTo(locale: LocaleCode): Promise<void>;
  /** Whether `locale`'s own texts (the first part) are in memory. */
  isLoaded(locale: LocaleCode): boolean;
  /**
   * Fetches the `later` part named (all of them when none is named) of the language wanted (and its
   * fallbacks), and from now on with every switch of language; resolves at once when they are in,
   * or when there are none.
   */
  loadLater(name?: string): Promise<void>;
  t(key: MessageKey, values?: MessageValues): string;
  /** A server message (the error catalogue's English `msg`) in the language shown. */
  tServer(msg: string): string;
}

/** A part of an app's texts downloaded only when first needed (the user app's `tabs` and `more`, messages.ts). */
export interface LaterTexts {
  /** What `loadLater(name)` calls it. */
  name: string;
  loaders: CatalogueLoader[];
  /** Whether a key is in this part. */
  holds: (key: string) => boolean;
}

/**
 * The messages of an app made of `areas` (e.g. the user app: its own texts and the errors), and
 * optionally of `later` parts, each fetched once `loadLater(name)` is first called for it (the user
 * app: the tabs' texts when a tab opens, the rest when another page behind the login opens); from
 * then on every switch of language fetches those too. English is the last
 * link of every fallback chain but is loaded only when a key is missing from the language shown:
 * the catalogue tests keep that from happening, so a French reader downloads no English. Until it
 * arrives the missing text is empty, then the page renders again. A `later` key asked for before
 * its part is in fetches that part of the language shown (not English), so the worst a wrong guess
 * of which texts a page needs costs is a moment of empty text.
 */
export function createLazyMessages(areas: CatalogueLoader[], later: readonly LaterTexts[] = []): LazyMessages {
  const loads = new Map<string, Promise<void>>();
  // `${part}:${locale}` of every part in memory.
  const loaded = new Set<string>();
  let wanted: LocaleCode | null = null;
  // i18next starts on a language of its own choosing (its fallback) before any text is in; what
  // is shown is the last language switched to once its texts arrived.
  let shown: LocaleCode | null = null;
  // The later parts asked for so far: every switch of language fetches them too.
  const laterWanted = new Set<string>();

  // `start` or a later part's name.
  const load = (part: string, locale: LocaleCode): Promise<void> => {
    const id = `${part}:${locale}`;
    let pending = loads.get(id);
    if (!pending) {
      const loaders = part === 'start' ? areas : (later.find((each) => each.name === part)?.loaders ?? []);
      pending = Promise.all(loaders.map((area) => area(locale))).then((parts) => {
        i18n.addResourceBundle(locale, 'translation', Object.assign({}, ...parts), true, true);
        loaded.add(id);
      });
      // A failed download (offline) is tried again at the next switch.
      pending.catch(() => loads.delete(id));
      loads.set(id, pending);
    }
    return pending;
  };

  const partsWanted = (): string[] => ['start', ...laterWanted];
  const partOf = (key: string): string => later.find((each) => each.holds(key))?.name ?? 'start';

  const loadLater = async (name?: string): Promise<void> => {
    const parts = later.filter((each) => name === undefined || each.name === name).map((each) => each.name);
    for (const part of parts) laterWanted.add(part);
    const locale = wanted ?? shown;
    if (locale) await Promise.all(textLocalesOf(locale).flatMap((each) => parts.map((part) => load(part, each))));
  };

  const i18n = createMessageFormatter({
    parseMissingKeyHandler: (key: string) => {
      const part = partOf(key);
      if (part !== 'start' && shown && !loaded.has(`${part}:${shown}`)) {
        // A page asked for a text of a part not fetched yet: fetch it in the language shown.
        loadLater(part).catch(() => {});
        return '';
      }
      if (loaded.has(`${part}:en`)) return key;
      load(part, 'en').catch(() => {});
      return '';
    },
  });

  const t: MessageFunction = (key, values) => (i18n.t as unknown as (key: string, options?: TOptions) => string)(key, values);

  return {
    i18n,
    current: () => shown,
    isLoaded: (locale) => loaded.has(`start:${locale}`),
    async switchTo(locale) {
      wanted = locale;
      await Promise.all(textLocalesOf(locale).flatMap((each) => partsWanted().map((part) => load(part, each))));
      if (wanted !== locale) return;
      shown = locale;
      await i18n.changeLanguage(locale);
    },
    loadLater,
    t,
    tServer: (msg) => t(serverMessageKey(msg)),
  };
}

/**
 * A message whose arguments are elements (a link, an amount): formats it with a marker for each
 * part, then cuts it at the markers. The parts sit where the language puts them, plurals included.
 */
export function formatWithParts<Part>(format: (values: MessageValues) => string, parts: Record<string, Part>): (string | Part)[] {
  const names = Object.keys(parts);
  const markers = Object.fromEntries(names.map((name, index) => [name, `\u{E000}${index}\u{E001}`]));
  return format(markers)
    .split(/\u{E000}(\d+)\u{E001}/u)
    .map((piece, index) => (index % 2 === 1 ? (parts[names[Number(piece)] as string] as Part) : piece))
    .filter((piece) => piece !== '');
}
