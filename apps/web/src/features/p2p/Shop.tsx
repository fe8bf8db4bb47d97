import { Link, useSearchParams } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Segmented } from '../../shared/ui/components.tsx';
import { BuyList, MyAdsList } from './AdLists.tsx';

type ShopTab = 'buy' | 'mine';

/**
 * /trade/shopping: the fiat shop. "Buy" lists the open sell ads (best price first, by currency);
 * "My ads" lists mine with what each still offers. The tab is kept in the address (`?tab=mine`).
 * Links lead to posting an ad and to my orders.
 */
export function Shop() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const tab: ShopTab = params.get('tab') === 'mine' ? 'mine' : 'buy';
  return (
    <>
      <p className="muted">{t('web.p2p.shop.intro')}</p>
      <nav className="p2p-shop-actions" aria-label={t('web.p2p.shop.more')}>
        <Link to="/trade/shopping/sell" className="btn btn-primary btn-small" data-testid="shop-post-ad">
          {t('web.p2p.shop.postAd')}
        </Link>
        <Link to="/orderlist" className="btn btn-secondary btn-small" data-testid="shop-orders">
          {t('web.p2p.orders.title')}
        </Link>
        <Link to="/trade/contact/list" className="btn btn-ghost btn-small" data-testid="shop-chats">
          {t('web.p2p.chats.title')}
        </Link>
      </nav>
      <Segmented<ShopTab>
        label={t('web.p2p.shop.title')}
        value={tab}
        options={[
          { value: 'buy', label: t('web.p2p.shop.tabBuy'), testId: 'shop-tab-buy' },
          { value: 'mine', label: t('web.p2p.shop.tabMine'), testId: 'shop-tab-mine' },
        ]}
        onChange={(next) => setParams(next === 'mine' ? { tab: 'mine' } : {}, { replace: true })}
      />
      {tab === 'buy' ? <BuyList /> : <MyAdsList />}
    </>
  );
}
