import type { RouteObject } from 'react-router';
import { MessagePage } from '../routes/mobile/message/MessagePage.tsx';
import {
  BuyDetailPage,
  BuyPayPage,
  ContactListPage,
  ContactPage,
  OrderListPage,
  SellAdPage,
  SellDetailPage,
  ShoppingPage,
  TradingTypePage,
} from '../routes/mobile/trade/ShoppingPages.tsx';

/**
 * Issue 6's fiat-trading routes and the message list (spec section 2, paths as the spec writes
 * them). All behind the login guard, full screen with a way back (no tab bar). The fixed
 * `buy_detail`, `buy_pay`, `sell_detail` and `contact` segments rank above `:type`.
 */
export const p2pRoutes: RouteObject[] = [
  { path: '/trade/shopping', element: <ShoppingPage /> },
  { path: '/trade/shopping/sell', element: <SellAdPage /> },
  { path: '/trade/shopping/trading/:type', element: <TradingTypePage /> },
  { path: '/trade/shopping/trading/buy_detail/:id', element: <BuyDetailPage /> },
  { path: '/trade/shopping/trading/buy_pay/:id', element: <BuyPayPage /> },
  { path: '/trade/shopping/trading/sell_detail/:id', element: <SellDetailPage /> },
  { path: '/trade/shopping/trading/contact/:id', element: <ContactPage /> },
  { path: '/trade/contact/list', element: <ContactListPage /> },
  { path: '/orderlist', element: <OrderListPage /> },
  { path: '/message', element: <MessagePage /> },
];
