import type { LocaleCode } from '@keel/contracts';
import { textLocalesOf } from '@keel/locales/load/chain';
import { loadErrorMessages } from '@keel/locales/load/error';
import { loadTabWebMessages, loadWebMessages } from '@keel/locales/load/web';
import { startEarlyReads } from '../shared/api/early-reads.ts';
import { TOKEN_KEY } from '../shared/api/session-keys.ts';
import { everyScreenReads, firstScreen, pages } from './pages.ts';

/**
 * Starts, from the app's first script, the downloads the first screen waits for: its texts in the
 * device's language and the chunk of the page the address names. Started here they travel with
 * React's script instead of after it has arrived and run; the modules that use them later import
 * the same files and get these (issue 14's first-paint budget, ADR 0025).
 */
export function startFirstScreenDownloads(pathname: string, locale: LocaleCode): void {
  const screen = firstScreen(pathname, localStorage.getItem(TOKEN_KEY) !== null);
  // A failed download shows where the file is used: the same import there fails the same way.
  const handledWhereUsed = () => {};
  for (const each of textLocalesOf(locale)) {
    loadWebMessages(each).catch(handledWhereUsed);
    loadErrorMessages(each).catch(handledWhereUsed);
    if (screen.behindLogin) loadTabWebMessages(each).catch(handledWhereUsed);
  }
  for (const chunk of screen.chunks) pages[chunk]().catch(handledWhereUsed);
}

/**
 * Starts the API reads the first screen asks for first — every screen's (`everyScreenReads`), and
 * with a session the screen's own (`FirstScreen.reads`) — so their answers are there when its
 * queries ask (shared/api/early-reads.ts) instead of one round trip after the screen has rendered.
 */
export function startFirstScreenReads(pathname: string): void {
  const token = localStorage.getItem(TOKEN_KEY);
  startEarlyReads(everyScreenReads, token);
  if (token !== null) startEarlyReads(firstScreen(pathname, true).reads, token);
}
