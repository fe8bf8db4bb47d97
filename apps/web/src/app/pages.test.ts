import { describe, expect, it } from 'vitest';
import { firstScreen, pages } from './pages.ts';

describe('firstScreen: the chunks a first visit starts downloading before React has arrived', () => {
  it('a public page: its own chunk, the texts a visitor sees', () => {
    expect(firstScreen('/login', false)).toEqual({ chunks: ['login'], behindLogin: false });
    expect(firstScreen('/loginaccount', true)).toEqual({ chunks: ['login'], behindLogin: false });
    expect(firstScreen('/register', false)).toEqual({ chunks: ['register'], behindLogin: false });
    expect(firstScreen('/terms', false)).toEqual({ chunks: ['legal'], behindLogin: false });
  });

  it('a tab with a session: the tab shell and the tab, and the texts behind the login', () => {
    expect(firstScreen('/index', true)).toEqual({ chunks: ['tabShell', 'home'], behindLogin: true });
    expect(firstScreen('/', true)).toEqual({ chunks: ['tabShell', 'home'], behindLogin: true });
    expect(firstScreen('/trade', true)).toEqual({ chunks: ['tabShell', 'trade'], behindLogin: true });
    expect(firstScreen('/trade_BTCUSDT', true)).toEqual({ chunks: ['tabShell', 'trade'], behindLogin: true });
    expect(firstScreen('/my', true)).toEqual({ chunks: ['tabShell', 'my'], behindLogin: true });
  });

  it('a tab without a session: the login screen the guard sends the visitor to, not the tab', () => {
    expect(firstScreen('/index', false)).toEqual({ chunks: ['login'], behindLogin: false });
    expect(firstScreen('/trade_ETHUSDT', false)).toEqual({ chunks: ['login'], behindLogin: false });
  });

  it('any other address: no head start (the router loads it as any navigation)', () => {
    expect(firstScreen('/assets/transfer', true)).toEqual({ chunks: [], behindLogin: true });
    expect(firstScreen('/nowhere', false)).toEqual({ chunks: [], behindLogin: false });
    // Paths are matched exactly, as the router matches them.
    expect(firstScreen('/Login', false)).toEqual({ chunks: [], behindLogin: false });
  });

  it('names only chunks the table can load', () => {
    for (const path of ['/login', '/register', '/forget', '/agreement', '/index', '/trade', '/news', '/assets', '/my']) {
      for (const chunk of firstScreen(path, true).chunks) expect(typeof pages[chunk]).toBe('function');
    }
  });
});
