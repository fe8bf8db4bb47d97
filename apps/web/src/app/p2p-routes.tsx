import type { RouteObject } from 'react-router';
import { lazyPage } from './lazy-page.ts';

/**
 * Issue 6's fiat-trading routes and the message list (spec section 2, paths as the spec writes
 * them). All behind the login guard, full screen with a way back (no tab bar). The fixed
 * `buy_detail`, `buy_pay`, `sell_detail` and `contact` segments rank above `:type`.
 */
export const p2pRoutes: RouteObject[] = [
  { path: '/trade/shopping', lazy: lazyPage(() => import('../routes/mobile/trade/ShoppingPages.tsx'), 'ShoppingPage') },
  { path: '/trade/shopping/sell', lazy: lazyPage(() => import('../routes/mobile/trade/ShoppingPages.tsx'), 'SellAdPage') },
  { path: '/trade/shopping/trading/:type', lazy: lazyPage(() => import('../routes/mobile/trade/ShoppingPages.tsx'), 'TradingTypePage') },
  { path: '/trade/shopping/trading/buy_detail/:id', lazy: lazyPage(() => import('../routes/mobile/trade/ShoppingPages.tsx'), 'BuyDetailPage') },
  { path: '/trade/shopping/trading/buy_pay/:id', lazy: lazyPage(() => import('../routes/mobile/trade/ShoppingPages.tsx'), 'BuyPayPage') },
  { path: '/trade/shopping/trading/sell_detail/:id', lazy: lazyPage(() => import('../routes/mobile/trade/ShoppingPages.tsx'), 'SellDetailPage') },
  { path: '/trade/shopping/trading/contact/:id', lazy: lazyPage(() => import('../routes/mobile/trade/ShoppingPages.tsx'), 'ContactPage') },
  { path: '/trade/contact/list', lazy: lazyPage(() => import('../routes/mobile/trade/ShoppingPages.tsx'), 'ContactListPage') },
  { path: '/orderlist', lazy: lazyPage(() => import('../routes/mobile/trade/ShoppingPages.tsx'), 'OrderListPage') },
  { path: '/message', lazy: lazyPage(() => import('../routes/mobile/message/MessagePage.tsx'), 'MessagePage') },
];
