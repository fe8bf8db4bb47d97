import type { RouteObject } from 'react-router';
import { lazyPage } from './lazy-page.ts';

/**
 * Issue 5's wallet routes (spec section 2, paths as the spec writes them): deposit, withdrawal,
 * their records, the address book and bank cards; the C2C pages of issue 19 (deposits and
 * withdrawals through merchants). All behind the login guard, full screen with a
 * way back (no tab bar).
 */
export const walletRoutes: RouteObject[] = [
  { path: '/assets/recharge', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'RechargePage') },
  { path: '/assets/rechargeLog', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'RechargeLogPage') },
  { path: '/assets/withdraw', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'WithdrawPage') },
  { path: '/assets/withdrawLog', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'WithdrawLogPage') },
  { path: '/assets/WithdrawList', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'WithdrawListPage') },
  { path: '/assets/WithdrawDetails/:id', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'WithdrawDetailsPage') },
  { path: '/assets/WithdrawPay/:id', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'WithdrawPayPage') },
  { path: '/assets/WalletAddress/:selete', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'WalletAddressPage') },
  { path: '/assets/card/:selete', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'CardPage') },
  { path: '/assets/addcard', lazy: lazyPage(() => import('../routes/mobile/assets/WalletPages.tsx'), 'AddCardPage') },
  // C2C through merchants (issue 19, ADR 0043): the withdrawal form, list and order; a deposit's order.
  { path: '/assets/C2CWithdrawal/:country', lazy: lazyPage(() => import('../routes/mobile/assets/C2cPages.tsx'), 'C2CWithdrawalPage') },
  { path: '/assets/C2CWithdrawalList', lazy: lazyPage(() => import('../routes/mobile/assets/C2cPages.tsx'), 'C2CWithdrawalListPage') },
  { path: '/assets/C2CWithdrawalInfo/:id', lazy: lazyPage(() => import('../routes/mobile/assets/C2cPages.tsx'), 'C2CWithdrawalInfoPage') },
  { path: '/assets/C2CDeposit/:id', lazy: lazyPage(() => import('../routes/mobile/assets/C2cPages.tsx'), 'C2CDepositPage') },
  { path: '/person/setting/bank', lazy: lazyPage(() => import('../routes/mobile/person/BankPage.tsx'), 'BankPage') },
];
