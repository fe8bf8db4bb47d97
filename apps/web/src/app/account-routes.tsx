import type { RouteObject } from 'react-router';
import { ChangePasswordPage, PayPasswordPage, SettingPage } from '../routes/mobile/person/SettingsPages.tsx';
import { AdvancedPage, AuthenticationPage, IdentityPage } from '../routes/mobile/person/VerificationPages.tsx';
import { SafeSettingPage } from '../routes/mobile/safeSetting/SafeSettingPage.tsx';

/**
 * Issue 4's settings and verification routes (spec section 2), all behind the login guard and
 * outside the tab shell (sub-pages with a way back). /person/setting/bank is in wallet-routes.tsx.
 */
export const accountRoutes: RouteObject[] = [
  { path: '/person/setting', element: <SettingPage /> },
  { path: '/person/setting/changepassword', element: <ChangePasswordPage /> },
  { path: '/person/setting/paypassword', element: <PayPasswordPage /> },
  { path: '/safeSetting/:type', element: <SafeSettingPage /> },
  { path: '/person/authentication', element: <AuthenticationPage /> },
  { path: '/person/identity', element: <IdentityPage /> },
  { path: '/my/identity', element: <IdentityPage /> },
  { path: '/person/advanced', element: <AdvancedPage /> },
];
