import type { MessageKey } from '@keel/locales';

/**
 * Every feature area of the user app that exists, as the home page links to it (issue 14). A link
 * here is to a page that is built: an area that lands later (loans, fund, C2C, news, VIP,
 * invitation …) adds its entry here when its routes exist, never before. The browser test opens
 * every link and checks none is "not found" (tests/e2e/home.test.ts).
 */

export type AreaGroup = 'trading' | 'wallet' | 'account' | 'learn';

export interface FeatureArea {
  /** Names the link in tests: `area-<key>`. */
  key: string;
  group: AreaGroup;
  to: string;
  label: MessageKey;
  /** One line on what the area is for. */
  about: MessageKey;
}

export const areaGroups: readonly { group: AreaGroup; title: MessageKey }[] = [
  { group: 'trading', title: 'web.home.area.groupTrading' },
  { group: 'wallet', title: 'web.home.area.groupWallet' },
  { group: 'account', title: 'web.home.area.groupAccount' },
  { group: 'learn', title: 'web.home.area.groupLearn' },
];

export const featureAreas: readonly FeatureArea[] = [
  // Trading (issues 6 and 7, the market list of issue 4).
  { key: 'contracts', group: 'trading', to: '/trade', label: 'web.options.title', about: 'web.home.area.contracts' },
  { key: 'market', group: 'trading', to: '/news', label: 'web.market.title', about: 'web.home.area.market' },
  { key: 'p2p-shop', group: 'trading', to: '/trade/shopping', label: 'web.p2p.trade.shop', about: 'web.home.area.p2pShop' },
  { key: 'p2p-orders', group: 'trading', to: '/orderlist', label: 'web.p2p.orders.title', about: 'web.home.area.p2pOrders' },
  { key: 'p2p-chats', group: 'trading', to: '/trade/contact/list', label: 'web.p2p.chats.title', about: 'web.home.area.p2pChats' },
  // Earn (issue 17): lock-up mining and financial products.
  { key: 'earn', group: 'trading', to: '/Lockup', label: 'web.earn.nav', about: 'web.home.area.earn' },
  // Loans (issue 18): USDT lent against pledged collateral by a published credit policy.
  { key: 'loans', group: 'trading', to: '/person/Loan', label: 'web.home.area.loansTitle', about: 'web.home.area.loans' },
  // The fund (issue 18): funding requests backed by collateral, invested in by other users.
  { key: 'fund', group: 'trading', to: '/fund', label: 'web.home.area.fundTitle', about: 'web.home.area.fund' },
  // Wallet (issues 4 and 5).
  { key: 'assets', group: 'wallet', to: '/assets', label: 'web.tab.assets', about: 'web.home.area.assets' },
  { key: 'records', group: 'wallet', to: '/assets/records', label: 'web.records.title', about: 'web.home.area.records' },
  { key: 'deposits', group: 'wallet', to: '/assets/rechargeLog', label: 'web.deposit.logTitle', about: 'web.home.area.deposits' },
  { key: 'withdrawals', group: 'wallet', to: '/assets/withdrawLog', label: 'web.withdraw.logTitle', about: 'web.home.area.withdrawals' },
  { key: 'addresses', group: 'wallet', to: '/assets/WalletAddress/manage', label: 'web.address.title', about: 'web.home.area.addresses' },
  { key: 'cards', group: 'wallet', to: '/person/setting/bank', label: 'web.card.title', about: 'web.home.area.cards' },
  // The account (issues 2, 3 and 6).
  { key: 'messages', group: 'account', to: '/message', label: 'web.message.title', about: 'web.home.area.messages' },
  { key: 'verification', group: 'account', to: '/person/authentication', label: 'web.verification.centreTitle', about: 'web.home.area.verification' },
  { key: 'security', group: 'account', to: '/person/setting', label: 'web.settings.title', about: 'web.home.area.security' },
  { key: 'mine', group: 'account', to: '/my', label: 'web.home.linkProfile', about: 'web.home.area.mine' },
  // Help and news (issue 20): public pages, readable without a session too.
  { key: 'help', group: 'learn', to: '/helpcenter', label: 'web.home.area.helpTitle', about: 'web.home.area.help' },
  { key: 'courses', group: 'learn', to: '/course', label: 'web.home.area.coursesTitle', about: 'web.home.area.courses' },
  { key: 'news', group: 'learn', to: '/news/OrderDeyail', label: 'web.home.area.newsTitle', about: 'web.home.area.news' },
  { key: 'about', group: 'learn', to: '/aboutus', label: 'web.home.area.aboutTitle', about: 'web.home.area.about' },
];
