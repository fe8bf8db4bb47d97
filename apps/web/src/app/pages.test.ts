import {
  type Contract,
  createApiClient,
  getOptionsOverviewContract,
  listAccountsContract,
  listOptionOrdersContract,
  listTickersContract,
  meContract,
  siteContract,
  unreadContract,
} from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { historyInput, openOrdersInput } from '../features/options/option-inputs.ts';
import { everyScreenReads, firstScreen, pages } from './pages.ts';

/** The address the app's API client asks for a contract and input (what an early read must equal). */
async function clientAddress(contract: Contract, input?: object): Promise<string> {
  let asked = '';
  const call = createApiClient({
    baseUrl: '',
    getToken: () => 'token',
    fetchImpl: async (url) => {
      asked = String(url);
      return new Response(JSON.stringify({ code: 200, msg: 'ok', data: null }));
    },
  });
  await call(contract, input as never);
  return asked;
}

describe('firstScreen: the chunks a first visit starts downloading before React has arrived', () => {
  it('a public page: its own chunk, the texts a visitor sees', () => {
    expect(firstScreen('/login', false)).toEqual({ chunks: ['login'], behindLogin: false, reads: [] });
    expect(firstScreen('/loginaccount', true)).toEqual({ chunks: ['login'], behindLogin: false, reads: [] });
    expect(firstScreen('/register', false)).toEqual({ chunks: ['register'], behindLogin: false, reads: [] });
    expect(firstScreen('/terms', false)).toEqual({ chunks: ['legal'], behindLogin: false, reads: [] });
    // Proof of liabilities is public: its own chunk, with or without a session (a snapshot's page loads through the router).
    expect(firstScreen('/proof', false)).toEqual({ chunks: ['proof'], behindLogin: false, reads: [] });
    expect(firstScreen('/proof', true)).toEqual({ chunks: ['proof'], behindLogin: false, reads: [] });
    // So is the transparency page (issue 22).
    expect(firstScreen('/transparency', false)).toEqual({ chunks: ['transparency'], behindLogin: false, reads: [] });
    expect(firstScreen('/transparency', true)).toEqual({ chunks: ['transparency'], behindLogin: false, reads: [] });
    // And the content pages' lists (issue 20); their details load through the router.
    for (const path of ['/helpcenter', '/course', '/aboutus', '/industrynews', '/news/OrderDeyail']) {
      expect(firstScreen(path, false)).toEqual({ chunks: ['content'], behindLogin: false, reads: [] });
    }
  });

  it('a tab with a session: the tab shell and the tab, and the texts behind the login', () => {
    expect(firstScreen('/index', true)).toMatchObject({ chunks: ['tabShell', 'home'], behindLogin: true });
    expect(firstScreen('/', true)).toMatchObject({ chunks: ['tabShell', 'home'], behindLogin: true });
    expect(firstScreen('/trade', true)).toMatchObject({ chunks: ['tabShell', 'trade'], behindLogin: true });
    expect(firstScreen('/trade_BTCUSDT', true)).toMatchObject({ chunks: ['tabShell', 'trade'], behindLogin: true });
    expect(firstScreen('/my', true)).toEqual({ chunks: ['tabShell', 'my'], behindLogin: true, reads: [] });
  });

  it('a tab without a session: the login screen the guard sends the visitor to, not the tab', () => {
    expect(firstScreen('/index', false)).toEqual({ chunks: ['login'], behindLogin: false, reads: [] });
    expect(firstScreen('/trade_ETHUSDT', false)).toEqual({ chunks: ['login'], behindLogin: false, reads: [] });
  });

  it('any other address: no head start (the router loads it as any navigation)', () => {
    expect(firstScreen('/assets/transfer', true)).toEqual({ chunks: [], behindLogin: true, reads: [] });
    expect(firstScreen('/nowhere', false)).toEqual({ chunks: [], behindLogin: false, reads: [] });
    // Paths are matched exactly, as the router matches them.
    expect(firstScreen('/Login', false)).toEqual({ chunks: [], behindLogin: false, reads: [] });
  });

  it('names only chunks the table can load', () => {
    for (const path of ['/login', '/register', '/forget', '/agreement', '/proof', '/transparency', '/index', '/trade', '/news', '/assets', '/my']) {
      for (const chunk of firstScreen(path, true).chunks) expect(typeof pages[chunk]).toBe('function');
    }
  });

  it('starts the reads of the home and trade screens at the addresses their queries ask for', async () => {
    expect(firstScreen('/index', true).reads).toEqual([
      await clientAddress(unreadContract),
      await clientAddress(listAccountsContract),
      await clientAddress(listTickersContract),
      await clientAddress(meContract),
    ]);
    const trade = [
      await clientAddress(unreadContract),
      await clientAddress(listTickersContract),
      await clientAddress(getOptionsOverviewContract),
      await clientAddress(listOptionOrdersContract, openOrdersInput),
      await clientAddress(listOptionOrdersContract, historyInput(1)),
    ];
    expect(firstScreen('/trade', true).reads).toEqual(trade);
    expect(firstScreen('/trade_ETHUSDT', true).reads).toEqual(trade);
  });

  it('starts every screen’s read of the deployment (the demo banner) at the address its query asks for', async () => {
    expect(everyScreenReads).toEqual([await clientAddress(siteContract)]);
  });
});
