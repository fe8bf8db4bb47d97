import type { RouteObject } from 'react-router';
import { lazyPage } from './lazy-page.ts';

/**
 * Issue 4's settings and verification routes (spec section 2), all behind the login guard and
 * outside the tab shell (sub-pages with a way back). /person/setting/bank is in wallet-routes.tsx.
 */
export const accountRoutes: RouteObject[] = [
  { path: '/person/setting', lazy: lazyPage(() => import('../routes/mobile/person/SettingsPages.tsx'), 'SettingPage') },
  { path: '/person/setting/changepassword', lazy: lazyPage(() => import('../routes/mobile/person/SettingsPages.tsx'), 'ChangePasswordPage') },
  { path: '/person/setting/paypassword', lazy: lazyPage(() => import('../routes/mobile/person/SettingsPages.tsx'), 'PayPasswordPage') },
  { path: '/safeSetting/:type', lazy: lazyPage(() => import('../routes/mobile/safeSetting/SafeSettingPage.tsx'), 'SafeSettingPage') },
  { path: '/person/authentication', lazy: lazyPage(() => import('../routes/mobile/person/VerificationPages.tsx'), 'AuthenticationPage') },
  { path: '/person/identity', lazy: lazyPage(() => import('../routes/mobile/person/VerificationPages.tsx'), 'IdentityPage') },
  { path: '/my/identity', lazy: lazyPage(() => import('../routes/mobile/person/VerificationPages.tsx'), 'IdentityPage') },
  { path: '/person/advanced', lazy: lazyPage(() => import('../routes/mobile/person/VerificationPages.tsx'), 'AdvancedPage') },
];
