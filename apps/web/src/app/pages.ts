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
  news: () => import('../routes/mobile/news/NewsPage.tsx'),
  assets: () => import('../routes/mobile/assets/AssetsPage.tsx'),
  my: () => import('../routes/mobile/my/MyPage.tsx'),
} as const;

type PageName = keyof typeof pages;

const publicPages: Record<string, PageName> = {
  '/login': 'login',
  '/loginaccount': 'login',
  '/register': 'register',
  '/forget': 'forget',
  '/agreement': 'legal',
  '/terms': 'legal',
};

const tabPages: Record<string, PageName> = {
  '/': 'home',
  '/index': 'home',
  '/trade': 'trade',
  '/news': 'news',
  '/assets': 'assets',
  '/my': 'my',
};

export interface FirstScreen {
  /** The chunks of the screen the address opens (none when it is not one of the screens above). */
  chunks: PageName[];
  /** Whether it is a page behind the login, which shows the `more` part of the texts. */
  behindLogin: boolean;
}

/**
 * Which of the screens above a first visit to `pathname` shows: its own, or the login screen when
 * the page needs a session and the device has none (RequireAuth sends the visitor there). Only a
 * head start: a path not listed here loads through the router as any later navigation does.
 */
export function firstScreen(pathname: string, hasSession: boolean): FirstScreen {
  const publicPage = publicPages[pathname];
  if (publicPage) return { chunks: [publicPage], behindLogin: false };
  const tabPage = tabPages[pathname] ?? (isTradeIdPath(pathname) ? 'trade' : null);
  if (!hasSession) return { chunks: tabPage ? ['login'] : [], behindLogin: false };
  return { chunks: tabPage ? ['tabShell', tabPage] : [], behindLogin: true };
}
