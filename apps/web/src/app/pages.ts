import { isTradeIdPath } from './trade-path.ts';

/**
 * The screens a visit can start on, each its own chunk: the router loads them when their route
 * matches (router.tsx), and the first script starts the download of the one the address names
 * before React has arrived (`firstScreenChunks`), so the two downloads overlap instead of queueing
 * (issue 14's first-paint budget). Importing a chunk twice fetches it once: the browser keeps one
 * module per address.
 */
export const pages = {
  login: () => import('../routes/mobile/login/LoginPage.tsx'),
  register: () => import('../routes/mobile/register/RegisterPage.tsx'),
  forget: () => import('../routes/mobile/forget/ForgetPage.tsx'),
  legal: () => import('../routes/mobile/legal/LegalPages.tsx'),
  tabShell: () => import('./TabShell.tsx'),
  home: () => import('../routes/mobile/index/HomePage.tsx'),
  trade: () => import('../routes/mobile/trade/TradePage.tsx'),
  // The trade tab's frame (the product switcher) and its leverage screens (issue 16).
  tradeProducts: () => import('../routes/mobile/trade/TradeProducts.tsx'),
  leverage: () => import('../routes/mobile/trade/LeveragePages.tsx'),
  news: () => import('../routes/mobile/news/NewsPage.tsx'),
  assets: () => import('../routes/mobile/assets/AssetsPage.tsx'),
  my: () => import('../routes/mobile/my/MyPage.tsx'),
  // Earn: lock-up mining and financial products, full-screen pages outside the tabs (issue 17).
  earn: () => import('../routes/mobile/lockup/LockupPages.tsx'),
  // Proof of liabilities (issue 22): public, the published snapshots and a user's check of their balance.
  proof: () => import('../routes/mobile/proof/ProofPages.tsx'),
  // The transparency page (issue 22): public, the platform's own accounts and every published rule.
  transparency: () => import('../routes/mobile/transparency/TransparencyPage.tsx'),
  // The content pages (issue 20): public, the help centre, courses, about us, the news lists and details.
  content: () => import('../routes/mobile/content/ContentPages.tsx'),
} as const;

type PageName = keyof typeof pages;

const publicPages: Record<string, PageName> = {
  '/login': 'login',
  '/loginaccount': 'login',
  '/register': 'register',
  '/forget': 'forget',
  '/agreement': 'legal',
  '/terms': 'legal',
  '/proof': 'proof',
  '/transparency': 'transparency',
  '/helpcenter': 'content',
  '/course': 'content',
  '/aboutus': 'content',
  '/industrynews': 'content',
  '/news/OrderDeyail': 'content',
};

const tabPages: Record<string, PageName> = {
  '/': 'home',
  '/index': 'home',
  '/trade': 'trade',
  '/trade/leveraged': 'leverage',
  '/trade/futures': 'leverage',
  '/news': 'news',
  '/assets': 'assets',
  '/my': 'my',
};

/**
 * The reads a tab's screen asks for first, as the API client addresses them (pages.test.ts checks
 * each against the screen's contract and input): the first script starts them with the session
 * (shared/api/early-reads.ts), so their answers travel with React's script instead of after the
 * screen has rendered.
 */
const tabReads: Partial<Record<PageName, readonly string[]>> = {
  // TabShell (the unread badge) and HomeOverview: the balances and the tickers (the total in USDT,
  // the movers) and the user (the greeting).
  home: ['/home/user/unread', '/home/assets/accounts', '/home/market/tickers', '/home/user/me'],
  // TabShell, the market header's price (the tickers) and useOptions: the overview (the order form or the verification notice) and both order lists.
  trade: [
    '/home/user/unread',
    '/home/market/tickers',
    '/home/options/overview',
    '/home/options/orders?scope=open&page=1&pageSize=100',
    '/home/options/orders?scope=history&page=1&pageSize=10',
  ],
};

/**
 * The reads every screen asks for, on every visit, with or without a session: the deployment's
 * facts behind the demo banner (SiteDemoBanner, ADR 0041). Started by the first script, so a demo's
 * banner arrives with the first screen instead of pushing it down a moment later.
 */
export const everyScreenReads: readonly string[] = ['/home/index/site'];

export interface FirstScreen {
  /** The chunks of the screen the address opens (none when it is not one of the screens above). */
  chunks: PageName[];
  /** Whether it is a tab behind the login, which shows the `tabs` part of the texts. */
  behindLogin: boolean;
  /** The API reads (GET addresses) the screen starts with; only with a session. */
  reads: readonly string[];
}

/**
 * Which of the screens above a first visit to `pathname` shows: its own, or the login screen when
 * the page needs a session and the device has none (RequireAuth sends the visitor there). Only a
 * head start: a path not listed here loads through the router as any later navigation does.
 */
export function firstScreen(pathname: string, hasSession: boolean): FirstScreen {
  const publicPage = publicPages[pathname];
  if (publicPage) return { chunks: [publicPage], behindLogin: false, reads: [] };
  const tabPage = tabPages[pathname] ?? (isTradeIdPath(pathname) ? 'trade' : null);
  if (!hasSession) return { chunks: tabPage ? ['login'] : [], behindLogin: false, reads: [] };
  if (!tabPage) return { chunks: [], behindLogin: true, reads: [] };
  return { chunks: ['tabShell', tabPage], behindLogin: true, reads: tabReads[tabPage] ?? [] };
}
