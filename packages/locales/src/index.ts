import { readdirSync, readFileSync } from 'node:fs';
import type { LocaleCode } from '@keel/contracts';
import { localeCodes } from '@keel/contracts';
import { createMessageFormatter, serverMessageKey } from './engine.ts';
import { type Catalogue, type MessageKey, type MessageValues, messageAreas } from './messages.ts';

export { intlLocale } from './engine.ts';
export type { Catalogue, MessageArea, MessageKey, MessageValues } from './messages.ts';
export { messageAreas } from './messages.ts';

const folder = new URL('../catalogues/', import.meta.url);

/** One language's texts of one area, as the file holds them (fr-pro and it-pro: only what differs). */
export function readCatalogue(area: string, locale: LocaleCode): Catalogue {
  return JSON.parse(readFileSync(new URL(`${area}/${locale}.json`, folder), 'utf8')) as Catalogue;
}

/** The area folders under `catalogues/`; the tests check they are exactly `messageAreas`. */
export function catalogueFolders(): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/**
 * Every language with every area, in memory: the server writes notifications and system messages
 * in the recipient's language at any moment, so it reads the files once, synchronously.
 */
export const catalogues: Record<LocaleCode, Catalogue> = Object.fromEntries(
  localeCodes.map((locale) => [locale, Object.assign({}, ...messageAreas.map((area) => readCatalogue(area, locale))) as Catalogue]),
) as Record<LocaleCode, Catalogue>;

const formatter = createMessageFormatter({
  resources: Object.fromEntries(localeCodes.map((locale) => [locale, { translation: catalogues[locale] }])),
  lng: 'en',
});

/**
 * A message in a language, its ICU arguments filled (plurals by the language's CLDR rules), looked
 * up key by key along the fallback chain (fr-pro → fr → en). English is the last resort at run
 * time only; the catalogue tests require every key in every full catalogue.
 */
export function translate(locale: LocaleCode, key: MessageKey, vars?: MessageValues): string {
  return formatter.t(key, { ...vars, lng: locale }) as string;
}

/** Shows a server message (the catalogue's English `msg`) in the user's language. */
export function translateServerMessage(locale: LocaleCode, msg: string): string {
  return translate(locale, serverMessageKey(msg));
}
