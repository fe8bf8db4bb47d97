import type adminEn from '../catalogues/admin/en.json';
import type errorEn from '../catalogues/error/en.json';
import type notifyEn from '../catalogues/notify/en.json';
import type webEn from '../catalogues/web/en.json';

/**
 * The catalogue areas, each a folder of 13 files under `catalogues/`: a key's first part names its
 * area. Each app loads only what it shows (ADR 0024); the server reads them all.
 */
export const messageAreas = ['web', 'admin', 'error', 'notify'] as const;
export type MessageArea = (typeof messageAreas)[number];

/** Every key a catalogue may have; English is the reference catalogue. */
export type MessageKey = keyof typeof webEn | keyof typeof adminEn | keyof typeof errorEn | keyof typeof notifyEn;

/** One language's texts: ICU messages by key. fr-pro and it-pro hold only what differs from fr and it. */
export type Catalogue = Partial<Record<MessageKey, string>>;

/** Values for a message's arguments: `{name}`, `{count, plural, …}`, `{seconds, number, ::unit/second}` … */
export type MessageValues = Record<string, string | number>;

/**
 * The user app's texts come in two downloads per language (ADR 0025): `start`, what a visitor
 * sees before logging in (the shell, the public pages, form messages), and `more`, everything shown
 * behind the login (the tabs and feature areas), fetched when the first such page opens. Areas here
 * are a `web.*` key's second part; every other area is in `start`.
 */
export const webStartAreas = ['app', 'auth', 'login', 'register', 'forget', 'legal', 'agreement', 'language', 'service', 'common', 'field', 'validation', 'error'] as const;

/** Which of the user app's downloads a key is in. */
export type CataloguePart = 'start' | 'more';

export function cataloguePartOf(key: string): CataloguePart {
  if (!key.startsWith('web.')) return 'start';
  const area = key.split('.')[1] ?? '';
  return (webStartAreas as readonly string[]).includes(area) ? 'start' : 'more';
}
