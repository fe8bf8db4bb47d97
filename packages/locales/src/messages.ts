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
 * The user app's texts come in three downloads per language (ADR 0025): `start`, what a visitor
 * sees before logging in (the shell, the public pages, form messages); `tabs`, what the tab bar and
 * the five tabs show, fetched with the first of them; and `more`, everything else behind the login
 * (the feature areas' own pages), fetched when the first such page opens. Areas here are a `web.*`
 * key's second part; every other area is in `start`.
 */
export const webStartAreas = [
  'app',
  'auth',
  'login',
  'register',
  'forget',
  'legal',
  'agreement',
  'language',
  'service',
  'common',
  'field',
  'validation',
  'error',
  // "Log in with wallet" and its refusals are on the login page (ADR 0047); the wallet settings
  // page's own texts (`walletConnect`) come with `more`.
  'walletLogin',
] as const;

/** The areas of the tab bar and the five tabs (home, trade, market, assets, mine) and their shared parts. */
export const webTabAreas = ['tab', 'home', 'options', 'market', 'assets', 'account', 'my', 'amount', 'message'] as const;

/**
 * Keys of other areas that the tabs show: the names of the pages they link to and a few shared
 * checks. messages.test.ts of the user app checks that every key the tab screens' modules name
 * is in `start` or `tabs`; a key missed here would be fetched with `more` (a moment of empty text).
 */
export const webTabKeys: ReadonlySet<string> = new Set([
  'web.wallet.deposit',
  'web.wallet.withdraw',
  'web.wallet.recordsNav',
  'web.p2p.trade.shop',
  'web.p2p.orders.title',
  'web.p2p.chats.title',
  'web.records.title',
  'web.deposit.logTitle',
  'web.withdraw.logTitle',
  'web.withdraw.belowMin',
  'web.withdraw.aboveAvailable',
  'web.withdraw.openTitle',
  'web.address.title',
  'web.card.title',
  'web.verification.centreTitle',
  'web.settings.title',
  'web.settings.accountAndSecurity',
  'web.transfer.amountPlaceholder',
  'web.earn.nav',
  'web.vip.nav',
]);

/** Which of the user app's downloads a key is in. */
export type CataloguePart = 'start' | 'tabs' | 'more';

export const catalogueParts: readonly CataloguePart[] = ['start', 'tabs', 'more'];

export function cataloguePartOf(key: string): CataloguePart {
  if (!key.startsWith('web.')) return 'start';
  const area = key.split('.')[1] ?? '';
  if ((webStartAreas as readonly string[]).includes(area)) return 'start';
  if ((webTabAreas as readonly string[]).includes(area) || webTabKeys.has(key)) return 'tabs';
  return 'more';
}
