import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject, useLocation } from 'react-router';
import { lazyPage } from './lazy-page.ts';
import { pages } from './pages.ts';
import { leverageLoader, tradeLoader } from './route-prefetch.ts';
import { setSessionNavigator } from '../shared/api/client.ts';
import { session } from '../shared/api/session.ts';
import { webMessages } from '../shared/i18n/messages.ts';
import { ErrorPage, NotFoundPage } from '../routes/mobile/error/ErrorPages.tsx';
import { accountRoutes } from './account-routes.tsx';
import { p2pRoutes } from './p2p-routes.tsx';
import { walletRoutes } from './wallet-routes.tsx';
import { RequireAuth } from './guards.tsx';
import { PageLoading, PageMain } from './PageMain.tsx';
import { RootLayout } from './RootLayout.tsx';
import { SiteDemoBanner } from './SiteDemoBanner.tsx';
import { isWideScreen } from './desktop-site.ts';
import type { DesktopPageName } from '../routes/desktop/DesktopLayout.tsx';
import { isTradeIdPath } from './trade-path.ts';

/** The loan pages (issue 18): one chunk for the five. */
const loanPages = () => import('../routes/mobile/person/LoanPages.tsx');

/** The fund section's pages (issue 18): one chunk for the seven. */
const fundPages = () => import('../routes/mobile/fund/FundPages.tsx');

/**
 * The desktop site (issue 21, ADR 0048): its frame (header menu, footer) and its pages, chunks of
 * their own built from the same feature parts as the mobile pages; a phone never downloads them.
 * The frame's chunk names the pages' chunks (`desktopPage`), so this script names only the frame.
 */
const desktopLayout = () => import('../routes/desktop/DesktopLayout.tsx');
const desktopPage = (name: DesktopPageName): RouteObject['lazy'] => ({ Component: async () => (await desktopLayout()).desktopPage(name) });

/** The trade tab on one market, /trade_{id}: the shell and the trade screen, each its own chunk. */
const TradeTabOnMarket = lazy(async () => {
  tradeLoader();
  const [{ TabShell }, { TradeProducts }, { TradePage }] = await Promise.all([
    pages.tabShell(),
    pages.tradeProducts(),
    pages.trade(),
    webMessages.loadLater('tabs'),
  ]);
  return {
    default: () => (
      <TabShell>
        <TradeProducts>
          <TradePage />
        </TradeProducts>
      </TabShell>
    ),
  };
});

/**
 * Paths react-router cannot express as a pattern: /trade_{id} (a parameter glued to a prefix) is
 * the trade tab; anything else unknown is the "not found" page, whether logged in or not.
 */
function UnmatchedRoute() {
  const { pathname } = useLocation();
  if (isTradeIdPath(pathname)) {
    return (
      <RequireAuth>
        <Suspense fallback={<PageLoading />}>
          <TradeTabOnMarket />
        </Suspense>
      </RequireAuth>
    );
  }
  return (
    <PageMain>
      <NotFoundPage />
    </PageMain>
  );
}

/**
 * The mobile routes of spec section 2 built so far; later issues add the others. The shell (this
 * file, the root layout, the guard) is in the first script; every screen, the tab shell too, is
 * a chunk of its own fetched when its route first matches (lazyPage). Each page has one main
 * landmark: the tab shell's, or PageMain's around every other screen.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: PageLoading,
    // A page that failed replaces the root layout: it keeps the demo banner (ADR 0041).
    errorElement: (
      <>
        <SiteDemoBanner />
        <PageMain>
          <ErrorPage />
        </PageMain>
      </>
    ),
    children: [
      // Public: reachable without a token.
      {
        element: <PageMain />,
        children: [
          { path: '/login', lazy: lazyPage(pages.login, 'LoginPage') },
          { path: '/loginaccount', lazy: lazyPage(pages.login, 'LoginPage') },
          { path: '/register', lazy: lazyPage(pages.register, 'RegisterPage') },
          { path: '/forget', lazy: lazyPage(pages.forget, 'ForgetPage') },
          { path: '/agreement', lazy: lazyPage(pages.legal, 'AgreementPage') },
          { path: '/terms', lazy: lazyPage(pages.legal, 'TermsPage') },
          { path: '/error/error', element: <ErrorPage /> },
          { path: '/error/error2', element: <NotFoundPage /> },
        ],
      },
      // Public pages whose texts are in the `more` part (ADR 0025), fetched with the page's chunk,
      // with or without a session: proof of liabilities (issue 22, ADR 0040) — the published
      // snapshots, one snapshot and the check of the user's own balance in it (which asks a visitor
      // to log in and brings them back).
      {
        element: <PageMain />,
        loader: async () => {
          await webMessages.loadLater('more');
          return null;
        },
        children: [
          { path: '/proof', lazy: lazyPage(pages.proof, 'ProofPage') },
          { path: '/proof/:snapshotId', lazy: lazyPage(pages.proof, 'ProofSnapshotPage') },
        ],
      },
      // The transparency page (issue 22), public: its own texts are in the `more` part, and it
      // states the contracts' rules in the contract screen's words, which are in `tabs`; both are
      // fetched with the page's chunk, with or without a session.
      {
        element: <PageMain />,
        loader: async () => {
          await webMessages.loadLater();
          return null;
        },
        children: [{ path: '/transparency', lazy: lazyPage(pages.transparency, 'TransparencyPage') }],
      },
      // The content pages of spec section 2 (issue 20, ADR 0044), public: the help centre, courses and
      // their lessons, about us, announcements ("news in order", /news/OrderDeyail) and industry news.
      // Their own texts are in `more`; the labels they share with the home and market tabs (sample
      // content, in English) in `tabs`: both are fetched with the chunk, with or without a session.
      {
        element: <PageMain />,
        loader: async () => {
          await webMessages.loadLater();
          return null;
        },
        children: [
          { path: '/helpcenter', lazy: lazyPage(pages.content, 'HelpCentrePage') },
          { path: '/helpcenterdetail/:id', lazy: lazyPage(pages.content, 'HelpArticlePage') },
          { path: '/course', lazy: lazyPage(pages.content, 'CoursesPage') },
          { path: '/course/detail/:id', lazy: lazyPage(pages.content, 'CourseDetailPage') },
          { path: '/aboutus', lazy: lazyPage(pages.content, 'AboutUsPage') },
          { path: '/industrynews', lazy: lazyPage(pages.content, 'IndustryNewsPage') },
          { path: '/industrynewdetail/:id', lazy: lazyPage(pages.content, 'IndustryNewsDetailPage') },
          { path: '/news/OrderDeyail', lazy: lazyPage(pages.content, 'NewsOrderDeyailPage') },
          { path: '/news/detail/:id', lazy: lazyPage(pages.content, 'AnnouncementPage') },
        ],
      },
      // Everything else needs a token, and the texts shown behind the login: the tabs' texts for
      // every page here, the rest for the pages outside the tabs, each fetched alongside the page's
      // chunk (react-router runs loaders and lazy imports together), not before the login screen
      // (ADR 0025).
      {
        element: <RequireAuth />,
        loader: async () => {
          if (session.token()) await webMessages.loadLater('tabs');
          return null;
        },
        children: [
          {
            lazy: lazyPage(pages.tabShell, 'TabShell'),
            children: [
              { path: '/', element: <Navigate to="/index" replace /> },
              { path: '/index', lazy: lazyPage(pages.home, 'HomePage') },
              // The trade tab: the product switcher above the contracts, leveraged and futures screens.
              {
                lazy: lazyPage(pages.tradeProducts, 'TradeProducts'),
                children: [
                  { path: '/trade', loader: tradeLoader, lazy: lazyPage(pages.trade, 'TradePage') },
                  { path: '/trade/leveraged', loader: leverageLoader('leveraged'), lazy: lazyPage(pages.leverage, 'LeveragedPage') },
                  { path: '/trade/futures', loader: leverageLoader('futures'), lazy: lazyPage(pages.leverage, 'FuturesPage') },
                ],
              },
              { path: '/news', lazy: lazyPage(pages.news, 'NewsPage') },
              { path: '/assets', lazy: lazyPage(pages.assets, 'AssetsPage') },
              { path: '/my', lazy: lazyPage(pages.my, 'MyPage') },
            ],
          },
          // Pages opened from a tab: full screen with a way back, no tab bar.
          {
            element: <PageMain />,
            loader: async () => {
              if (session.token()) await webMessages.loadLater('more');
              return null;
            },
            children: [
              { path: '/assets/transfer', lazy: lazyPage(() => import('../routes/mobile/assets/TransferPage.tsx'), 'TransferPage') },
              { path: '/assets/flashExchange', lazy: lazyPage(() => import('../routes/mobile/assets/SwapPages.tsx'), 'FlashExchangePage') },
              { path: '/assets/conversion', lazy: lazyPage(() => import('../routes/mobile/assets/SwapPages.tsx'), 'ConversionPage') },
              { path: '/assets/records', lazy: lazyPage(() => import('../routes/mobile/assets/RecordsPage.tsx'), 'RecordsPage') },
              // Invitations (issue 20, ADR 0045): the code, link and QR code, the published reward rule, invitees and rewards.
              { path: '/trade/sgrinvite', lazy: lazyPage(() => import('../routes/mobile/trade/InvitePage.tsx'), 'InvitePage') },
              // Earn (issue 17, ADR 0035): the products of each kind, a purchase, the user's subscriptions.
              { path: '/Lockup', lazy: lazyPage(pages.earn, 'LockupPage') },
              { path: '/Lockup/Financial', lazy: lazyPage(pages.earn, 'FinancialPage') },
              { path: '/Lockup/Purchase/:id', lazy: lazyPage(pages.earn, 'PurchasePage') },
              { path: '/Lockup/subscribe', lazy: lazyPage(pages.earn, 'SubscribePage') },
              // Loans (issue 18, ADR 0036): the overview and credit, the application and its agreement, the list, repayment.
              { path: '/person/Loan', lazy: lazyPage(loanPages, 'LoanPage') },
              { path: '/person/Apply', lazy: lazyPage(loanPages, 'LoanApplyPage') },
              { path: '/person/loanagreement', lazy: lazyPage(loanPages, 'LoanAgreementPage') },
              { path: '/person/loanList', lazy: lazyPage(loanPages, 'LoanListPage') },
              { path: '/person/loanBack', lazy: lazyPage(loanPages, 'LoanRepayPage') },
              // The fund section (issue 18, ADR 0037): the hub with the user's requests and the publish form, the introduction and its topics, the pool and a request, the user's investments.
              { path: '/fund', lazy: lazyPage(fundPages, 'FundPage') },
              { path: '/fund/introduction', lazy: lazyPage(fundPages, 'FundIntroductionPage') },
              { path: '/fund/introduction/detail/:id', lazy: lazyPage(fundPages, 'FundTopicPage') },
              { path: '/fund/pool', lazy: lazyPage(fundPages, 'FundPoolPage') },
              { path: '/fund/pool/detail/:id', lazy: lazyPage(fundPages, 'FundRequestPage') },
              { path: '/fund/investment', lazy: lazyPage(fundPages, 'FundInvestmentsPage') },
              { path: '/fund/investment/detail/:id', lazy: lazyPage(fundPages, 'FundInvestmentPage') },
              // VIP (issue 20, ADR 0046): the published table, my level and progress, applying.
              { path: '/my/vip', lazy: lazyPage(() => import('../routes/mobile/vip/VipPage.tsx'), 'VipPage') },
              ...accountRoutes,
              ...walletRoutes,
              ...p2pRoutes,
            ],
          },
        ],
      },
      // The desktop site (issue 21, ADR 0048), for wide screens (a narrow one is sent to the mobile
      // page, RootLayout): every part of the texts comes with its frame, as its pages show the tabs'
      // and the feature pages' texts beside the desktop's own (`web.desktop.*`, in `more`).
      {
        lazy: lazyPage(desktopLayout, 'DesktopLayout'),
        loader: async () => {
          // A narrow screen is sent to the mobile page by SiteSwitch (ADR 0048), fetched here; the frame shows nothing meanwhile.
          if (!isWideScreen()) {
            await import('./SiteSwitch.tsx');
            return null;
          }
          await webMessages.loadLater();
          return null;
        },
        children: [
          { path: '/web/index/login', lazy: desktopPage('DesktopLoginPage') },
          { path: '/web/index/Register', lazy: desktopPage('DesktopRegisterPage') },
          { path: '/web/index/Forget', lazy: desktopPage('DesktopForgetPage') },
          { path: '/web/index/Agreement', lazy: desktopPage('DesktopAgreementPage') },
          { path: '/web/index/Terms', lazy: desktopPage('DesktopTermsPage') },
          { path: '/web/helpCenter/index', lazy: desktopPage('DesktopHelpCentrePage') },
          {
            // Behind the login: the desktop login brings the user back (guards.tsx).
            element: <RequireAuth />,
            children: [
              { path: '/web/index/index', lazy: desktopPage('DesktopHomePage') },
              { path: '/web/assets/index', lazy: desktopPage('DesktopAssetsPage') },
              { path: '/web/my/index', lazy: desktopPage('DesktopMyPage') },
              { path: '/web/my/setting', lazy: desktopPage('DesktopSettingPage') },
              { path: '/web/my/Contact_list', lazy: desktopPage('DesktopContactListPage') },
              { path: '/web/trade/LeveragedTrading', lazy: desktopPage('DesktopLeveragedPage') },
              { path: '/web/trade/FuturesTrading', lazy: desktopPage('DesktopFuturesPage') },
              { path: '/web/trade/LockUpMining', lazy: desktopPage('DesktopLockUpPage') },
            ],
          },
          { path: '/web/*', element: <NotFoundPage /> },
        ],
      },
      { path: '*', element: <UnmatchedRoute /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

// The client's session rules (spec section 4) move the user with the router, without a reload.
setSessionNavigator((to) => {
  void router.navigate(to, { replace: true });
});
