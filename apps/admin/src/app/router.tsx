import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { FirstAllowedView, NotFoundView, RouteError } from './RouteViews.tsx';
import { Loading, StaffShell } from './StaffShell.tsx';
import { type ViewName, views } from './views.ts';

// The back-office's URLs (ADR 0028), under /admin: a path for every view (`views.ts`) and every
// record, the list filters in the query string (`shared/url-filter.ts`), so a link to one
// withdrawal, one appeal or a filtered queue opens the same thing for another member. Each view's
// code is its own chunk, loaded when the view is first opened (`lazy`); the shell and the login
// form are in the first one.

type Module = Record<string, unknown>;

/** A route component from a lazily loaded module, as react-router's `lazy` takes it. */
const lazyComponent = (load: () => Promise<Module>, name: string) => async () => ({ Component: (await load())[name] as ComponentType });

/**
 * A view's route at its path in `views.ts`, marked with the view's name for the shell's role
 * check (`handle.view`); `record` adds the route of one record under it (`:withdrawalId`),
 * drawn in the view's outlet, from the same chunk.
 */
function viewRoute(name: ViewName, load: () => Promise<Module>, page: string, record?: { param: string; component: string }): RouteObject {
  return {
    path: views.find((view) => view.name === name)!.path,
    handle: { view: name },
    lazy: lazyComponent(load, page),
    children: record ? [{ path: `:${record.param}`, lazy: lazyComponent(load, record.component) }] : undefined,
  };
}

/**
 * The merchant console (/admin/c2c/merchant): one view whose tabs have URLs of their own — the work
 * (offers and orders in progress) at the view's path, then /profile, /float and /history.
 */
function merchantConsoleRoute(): RouteObject {
  const load = () => import('../features/c2c/MerchantConsolePage.tsx');
  return {
    path: views.find((view) => view.name === 'merchant')!.path,
    handle: { view: 'merchant' },
    lazy: lazyComponent(load, 'MerchantConsolePage'),
    children: [
      { index: true, lazy: lazyComponent(load, 'MerchantWorkTab') },
      { path: 'profile', lazy: lazyComponent(load, 'MerchantProfileTab') },
      { path: 'float', lazy: lazyComponent(load, 'MerchantFloatTab') },
      { path: 'history', lazy: lazyComponent(load, 'MerchantHistoryTab') },
    ],
  };
}

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: StaffShell,
    ErrorBoundary: RouteError,
    HydrateFallback: Loading,
    children: [
      { index: true, Component: FirstAllowedView },
      viewRoute('users', () => import('../features/users/UsersPage.tsx'), 'UsersPage'),
      viewRoute('audit', () => import('../features/audit/AuditPage.tsx'), 'AuditPage'),
      viewRoute('verifications', () => import('../features/verifications/VerificationsPage.tsx'), 'VerificationsPage', {
        param: 'submissionId',
        component: 'VerificationDetailRoute',
      }),
      viewRoute('vip', () => import('../features/vip/VipApplicationsPage.tsx'), 'VipApplicationsPage'),
      viewRoute('outbox', () => import('../features/outbox/OutboxPage.tsx'), 'OutboxPage'),
      viewRoute('deposits', () => import('../features/finance/DepositsPage.tsx'), 'DepositsPage', { param: 'depositId', component: 'DepositDetailRoute' }),
      viewRoute('withdrawals', () => import('../features/finance/WithdrawalsPage.tsx'), 'WithdrawalsPage', {
        param: 'withdrawalId',
        component: 'WithdrawalDetailRoute',
      }),
      viewRoute('corrections', () => import('../features/corrections/CorrectionsPage.tsx'), 'CorrectionsPage'),
      viewRoute('appeals', () => import('../features/appeals/AppealsPage.tsx'), 'AppealsPage', { param: 'orderId', component: 'AppealDetailRoute' }),
      viewRoute('c2cAppeals', () => import('../features/c2c/C2cAppealsPage.tsx'), 'C2cAppealsPage', { param: 'requestId', component: 'C2cAppealDetailRoute' }),
      merchantConsoleRoute(),
      viewRoute('options', () => import('../features/options/OptionsPage.tsx'), 'OptionsPage'),
      viewRoute('leveragePositions', () => import('../features/leverage/LeveragePositionsPage.tsx'), 'LeveragePositionsPage', {
        param: 'positionId',
        component: 'PositionDetailRoute',
      }),
      viewRoute('leverageExposure', () => import('../features/leverage/LeverageExposurePage.tsx'), 'LeverageExposurePage'),
      viewRoute('insuranceFund', () => import('../features/leverage/InsuranceFundPage.tsx'), 'InsuranceFundPage'),
      viewRoute('earn', () => import('../features/earn/EarnProductsPage.tsx'), 'EarnProductsPage'),
      viewRoute('loans', () => import('../features/loans/LoansPage.tsx'), 'LoansPage', { param: 'loanId', component: 'LoanDetailRoute' }),
      viewRoute('loanProducts', () => import('../features/loans/LoanProductsPage.tsx'), 'LoanProductsPage'),
      viewRoute('fundRequests', () => import('../features/fund/FundRequestsPage.tsx'), 'FundRequestsPage', {
        param: 'requestId',
        component: 'FundRequestDetailRoute',
      }),
      viewRoute('proof', () => import('../features/proof/ProofSnapshotsPage.tsx'), 'ProofSnapshotsPage'),
      viewRoute('content', () => import('../features/content/ContentPage.tsx'), 'ContentPage', { param: 'itemId', component: 'ContentEditorRoute' }),
      viewRoute('staff', () => import('../features/staff/StaffPage.tsx'), 'StaffPage', { param: 'staffId', component: 'StaffSessionsRoute' }),
      viewRoute('mysessions', () => import('../features/staff/MySessionsPage.tsx'), 'MySessionsPage'),
      { path: '*', Component: NotFoundView },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/admin' });
