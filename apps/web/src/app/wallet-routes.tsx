import type { RouteObject } from 'react-router';
import {
  AddCardPage,
  CardPage,
  RechargeLogPage,
  RechargePage,
  WalletAddressPage,
  WithdrawDetailsPage,
  WithdrawListPage,
  WithdrawLogPage,
  WithdrawPage,
  WithdrawPayPage,
} from '../routes/mobile/assets/WalletPages.tsx';
import { BankPage } from '../routes/mobile/person/BankPage.tsx';

/**
 * Issue 5's wallet routes (spec section 2, paths as the spec writes them): deposit, withdrawal,
 * their records, the address book and bank cards. All behind the login guard, full screen with a
 * way back (no tab bar).
 */
export const walletRoutes: RouteObject[] = [
  { path: '/assets/recharge', element: <RechargePage /> },
  { path: '/assets/rechargeLog', element: <RechargeLogPage /> },
  { path: '/assets/withdraw', element: <WithdrawPage /> },
  { path: '/assets/withdrawLog', element: <WithdrawLogPage /> },
  { path: '/assets/WithdrawList', element: <WithdrawListPage /> },
  { path: '/assets/WithdrawDetails/:id', element: <WithdrawDetailsPage /> },
  { path: '/assets/WithdrawPay/:id', element: <WithdrawPayPage /> },
  { path: '/assets/WalletAddress/:selete', element: <WalletAddressPage /> },
  { path: '/assets/card/:selete', element: <CardPage /> },
  { path: '/assets/addcard', element: <AddCardPage /> },
  { path: '/person/setting/bank', element: <BankPage /> },
];
