import { Link, useSearchParams } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { ChannelTabs } from '../auth/ChannelTabs.tsx';
import { AdMarket, MyAdsList } from './AdLists.tsx';
import { adSideOfView, type ShopView, shopSearchFor, shopViewOf } from './market-view.ts';

/**
 * /trade/shopping: the fiat shop, three tabs (WAI-ARIA tabs, `ChannelTabs`). "Buy USDT" lists the
 * open sell ads (cheapest first), "Sell USDT" the open buy ads (highest price first, issue 19), each
 * by currency; "My ads" lists mine, both sides, with what each still offers or wants. The tab is kept
 * in the address (`?side=buy`, `?tab=mine`; `market-view.ts`). Links lead to posting an ad and to my
 * orders.
 */
export function Shop() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const view = shopViewOf(params);
  return (
    <>
      <p className="muted">{view === 'sell' ? t('web.p2p.shop.introSell') : t('web.p2p.shop.intro')}</p>
      <nav className="p2p-shop-actions" aria-label={t('web.p2p.shop.more')}>
        <Link to="/trade/shopping/sell" className="btn btn-primary btn-small" data-testid="shop-post-ad">
          {t('web.p2p.shop.postAnAd')}
        </Link>
        <Link to="/orderlist" className="btn btn-secondary btn-small" data-testid="shop-orders">
          {t('web.p2p.orders.title')}
        </Link>
        <Link to="/trade/contact/list" className="btn btn-ghost btn-small" data-testid="shop-chats">
          {t('web.p2p.chats.title')}
        </Link>
      </nav>
      <ChannelTabs<ShopView>
        label={t('web.p2p.shop.title')}
        idPrefix="shop"
        value={view}
        tabs={[
          { value: 'buy', label: t('web.p2p.shop.tabBuyUsdt') },
          { value: 'sell', label: t('web.p2p.shop.tabSellUsdt') },
          { value: 'mine', label: t('web.p2p.shop.tabMine') },
        ]}
        onChange={(next) => setParams(shopSearchFor(next, params), { replace: true })}
      />
      <div id="shop-panel" role="tabpanel" aria-labelledby={`shop-tab-${view}`} data-testid="shop-panel" data-view={view}>
        {view === 'mine' ? <MyAdsList /> : <AdMarket key={view} side={adSideOfView(view)} />}
      </div>
    </>
  );
}
