import { createBrowserRouter, Navigate, type RouteObject, useLocation } from 'react-router';
import { setSessionNavigator } from '../shared/api/client.ts';
import { AssetsPage } from '../routes/mobile/assets/AssetsPage.tsx';
import { RecordsPage } from '../routes/mobile/assets/RecordsPage.tsx';
import { ConversionPage, FlashExchangePage } from '../routes/mobile/assets/SwapPages.tsx';
import { TransferPage } from '../routes/mobile/assets/TransferPage.tsx';
import { ErrorPage, NotFoundPage } from '../routes/mobile/error/ErrorPages.tsx';
import { ForgetPage } from '../routes/mobile/forget/ForgetPage.tsx';
import { HomePage } from '../routes/mobile/index/HomePage.tsx';
import { AgreementPage, TermsPage } from '../routes/mobile/legal/LegalPages.tsx';
import { LoginPage } from '../routes/mobile/login/LoginPage.tsx';
import { MyPage } from '../routes/mobile/my/MyPage.tsx';
import { NewsPage } from '../routes/mobile/news/NewsPage.tsx';
import { RegisterPage } from '../routes/mobile/register/RegisterPage.tsx';
import { TradePage } from '../routes/mobile/trade/TradePage.tsx';
import { accountRoutes } from './account-routes.tsx';
import { p2pRoutes } from './p2p-routes.tsx';
import { walletRoutes } from './wallet-routes.tsx';
import { RequireAuth } from './guards.tsx';
import { RootLayout } from './RootLayout.tsx';
import { isTradeIdPath, TabShell } from './TabShell.tsx';

/**
 * Paths react-router cannot express as a pattern: /trade_{id} (a parameter glued to a prefix) is
 * the trade tab; anything else unknown is the "not found" page, whether logged in or not.
 */
function UnmatchedRoute() {
  const { pathname } = useLocation();
  if (isTradeIdPath(pathname)) {
    return (
      <RequireAuth>
        <TabShell>
          <TradePage />
        </TabShell>
      </RequireAuth>
    );
  }
  return <NotFoundPage />;
}

/** The mobile routes of spec section 2 built so far; later issues add the others. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    children: [
      // Public: reachable without a token.
      { path: '/login', element: <LoginPage /> },
      { path: '/loginaccount', element: <LoginPage /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/forget', element: <ForgetPage /> },
      { path: '/agreement', element: <AgreementPage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/error/error', element: <ErrorPage /> },
      { path: '/error/error2', element: <NotFoundPage /> },
      // Everything else needs a token.
      {
        element: <RequireAuth />,
        children: [
          {
            element: <TabShell />,
            children: [
              { path: '/', element: <Navigate to="/index" replace /> },
              { path: '/index', element: <HomePage /> },
              { path: '/trade', element: <TradePage /> },
              { path: '/news', element: <NewsPage /> },
              { path: '/assets', element: <AssetsPage /> },
              { path: '/my', element: <MyPage /> },
            ],
          },
          // Pages opened from a tab: full screen with a way back, no tab bar.
          { path: '/assets/transfer', element: <TransferPage /> },
          { path: '/assets/flashExchange', element: <FlashExchangePage /> },
          { path: '/assets/conversion', element: <ConversionPage /> },
          { path: '/assets/records', element: <RecordsPage /> },
          ...accountRoutes,
          ...walletRoutes,
          ...p2pRoutes,
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
