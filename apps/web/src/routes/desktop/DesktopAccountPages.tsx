import type { ReactNode } from 'react';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { AssetsOverview } from '../../features/assets/AssetsOverview.tsx';
import { HomeOverview } from '../../features/home/HomeOverview.tsx';
import { MarketList } from '../../features/market/MarketList.tsx';
import { ChatList } from '../../features/p2p/OrderLists.tsx';
import { SettingsPage } from '../../features/settings/SettingsPage.tsx';
import { MyPage } from '../mobile/my/MyPage.tsx';
import { accountMenu, type MenuItem, SideMenuPage } from './DesktopLayout.tsx';

/**
 * The desktop site's pages behind the login (issue 21, ADR 0048): the home page, the assets centre
 * and the account, each the mobile page's feature parts in the desktop frame, beside a side menu.
 */

/**
 * The assets centre's menu (spec section 2): OTC (the P2P shop), the wallet (this page), deposits of
 * USDT, BTC and ETH, leveraged trading, options (the contract screen), C2C and the transaction records.
 */
export const assetsMenu: MenuItem[] = [
  { to: '/trade/shopping', label: 'web.desktop.assetsMenu.otc', testId: 'assets-menu-otc' },
  { to: '/web/assets/index', label: 'web.desktop.assetsMenu.wallet', testId: 'assets-menu-wallet' },
  { to: '/assets/recharge?channel=USDT-TRC20', label: 'web.desktop.assetsMenu.deposit', values: { asset: 'USDT' }, testId: 'assets-menu-deposit-usdt' },
  { to: '/assets/recharge?channel=BTC', label: 'web.desktop.assetsMenu.deposit', values: { asset: 'BTC' }, testId: 'assets-menu-deposit-btc' },
  { to: '/assets/recharge?channel=ETH', label: 'web.desktop.assetsMenu.deposit', values: { asset: 'ETH' }, testId: 'assets-menu-deposit-eth' },
  { to: '/web/trade/LeveragedTrading', label: 'web.desktop.assetsMenu.leveraged', testId: 'assets-menu-leveraged' },
  { to: '/trade', label: 'web.desktop.assetsMenu.option', testId: 'assets-menu-option' },
  { to: '/assets/recharge?via=c2c', label: 'web.desktop.assetsMenu.c2c', testId: 'assets-menu-c2c' },
  { to: '/assets/records', label: 'web.desktop.assetsMenu.records', testId: 'assets-menu-records' },
];

/** /web/index/index: the home overview beside the markets. */
export function DesktopHomePage() {
  const { t } = useI18n();
  return (
    <div className="desktop-columns" data-testid="desktop-page-home">
      <div className="desktop-column-wide">
        <HomeOverview />
      </div>
      <aside className="desktop-column-side" aria-label={t('web.market.title')}>
        <MarketList />
      </aside>
    </div>
  );
}

/** /web/assets/index: the assets centre, the wallet's overview with the centre's menu. */
export function DesktopAssetsPage() {
  const { t } = useI18n();
  return (
    <SideMenuPage label={t('web.desktop.assetsMenu.label')} items={assetsMenu} testId="assets-centre-menu">
      <div data-testid="desktop-page-assets">
        <AssetsOverview />
      </div>
    </SideMenuPage>
  );
}

function AccountPage({ testId, children }: { testId: string; children: ReactNode }) {
  const { t } = useI18n();
  return (
    <SideMenuPage label={t('web.desktop.menu.account')} items={accountMenu} testId="account-menu">
      <div data-testid={testId}>{children}</div>
    </SideMenuPage>
  );
}

/** /web/my/index: the account overview (the personal centre). */
export function DesktopMyPage() {
  return (
    <AccountPage testId="desktop-page-my">
      <MyPage />
    </AccountPage>
  );
}

/** /web/my/setting: the security settings. */
export function DesktopSettingPage() {
  return (
    <AccountPage testId="desktop-page-setting">
      <SettingsPage />
    </AccountPage>
  );
}

/** /web/my/Contact_list: the contact list, the chats of the user's P2P orders (the mobile /trade/contact/list). */
export function DesktopContactListPage() {
  const { t } = useI18n();
  return (
    <AccountPage testId="desktop-page-contacts">
      <div className="page">
        <h1 className="page-title">{t('web.desktop.account.contacts')}</h1>
        <ChatList />
      </div>
    </AccountPage>
  );
}
