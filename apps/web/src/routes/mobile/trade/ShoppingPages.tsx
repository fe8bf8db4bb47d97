import { useParams, useSearchParams } from 'react-router';
import { BuyList, MyAdsList } from '../../../features/p2p/AdLists.tsx';
import { BuyPay } from '../../../features/p2p/BuyPay.tsx';
import { OrderChatScreen } from '../../../features/p2p/OrderChatScreen.tsx';
import { OrderDetail } from '../../../features/p2p/OrderDetail.tsx';
import { ChatList, OrderList } from '../../../features/p2p/OrderLists.tsx';
import { ShopLinks } from '../../../features/p2p/P2pParts.tsx';
import type { P2pAdSide } from '../../../features/p2p/ad-form.ts';
import { postSideOf } from '../../../features/p2p/market-view.ts';
import { SellAdForm } from '../../../features/p2p/SellAdForm.tsx';
import { Shop } from '../../../features/p2p/Shop.tsx';
import { isRecordId } from '../../../features/wallet/wallet-paths.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader, Segmented } from '../../../shared/ui/components.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

/** /trade/shopping: the fiat shop. */
export function ShoppingPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-shopping">
      <PageHeader title={t('web.p2p.shop.title')} backTo="/trade" />
      <Shop />
    </div>
  );
}

/**
 * /trade/shopping/sell: post an ad, a sell ad or (`?side=buy`, issue 19) a buy ad, the side chosen
 * on the page and kept in the address; `?ad={id}` edits one of mine (its side stays).
 */
export function SellAdPage() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const adParam = params.get('ad');
  const editId = isRecordId(adParam) ? adParam : null;
  const side = postSideOf(params);
  const title = editId ? t('web.p2p.sell.editTitle') : side === 'buy' ? t('web.p2p.buyAd.title') : t('web.p2p.sell.title');
  return (
    <div className="page page-narrow" data-testid={editId ? 'page-edit-ad' : 'page-sell'}>
      <PageHeader title={title} backTo="/trade/shopping?tab=mine" />
      {!editId && (
        <>
          <Segmented<P2pAdSide>
            label={t('web.p2p.post.sideLabel')}
            value={side}
            options={[
              { value: 'sell', label: t('web.p2p.shop.tabSellUsdt'), testId: 'post-side-sell' },
              { value: 'buy', label: t('web.p2p.shop.tabBuyUsdt'), testId: 'post-side-buy' },
            ]}
            onChange={(next) => setParams(next === 'buy' ? { side: 'buy' } : {}, { replace: true })}
          />
          <p className="muted" data-testid="post-intro">
            {side === 'buy' ? t('web.p2p.buyAd.intro') : t('web.p2p.sell.intro')}
          </p>
        </>
      )}
      <SellAdForm key={editId ?? 'new'} editId={editId} side={side} />
    </div>
  );
}

/** /trade/shopping/trading/{type}: `buy` is the buy list, `sell` my ads; any other type is not a page. */
export function TradingTypePage() {
  const { t } = useI18n();
  const { type } = useParams();
  if (type === 'buy') {
    return (
      <div className="page" data-testid="page-trading-buy">
        <PageHeader title={t('web.p2p.shop.tabBuy')} backTo="/trade/shopping" />
        <BuyList />
        <ShopLinks />
      </div>
    );
  }
  if (type === 'sell') {
    return (
      <div className="page" data-testid="page-trading-sell">
        <PageHeader title={t('web.p2p.shop.tabMine')} backTo="/trade/shopping" />
        <MyAdsList />
        <ShopLinks except="sell" />
      </div>
    );
  }
  return <NotFoundPage />;
}

/** /trade/shopping/trading/buy_detail/{id}: an order as the buyer. */
export function BuyDetailPage() {
  const { t } = useI18n();
  const { id } = useParams();
  if (!isRecordId(id)) return <NotFoundPage />;
  return (
    <div className="page" data-testid="page-buy-detail">
      <PageHeader title={t('web.p2p.order.buyTitle')} backTo="/orderlist" />
      <OrderDetail key={id} id={id} side="buyer" />
    </div>
  );
}

/** /trade/shopping/trading/sell_detail/{id}: an order as the seller. */
export function SellDetailPage() {
  const { t } = useI18n();
  const { id } = useParams();
  if (!isRecordId(id)) return <NotFoundPage />;
  return (
    <div className="page" data-testid="page-sell-detail">
      <PageHeader title={t('web.p2p.order.sellTitle')} backTo="/orderlist" />
      <OrderDetail key={id} id={id} side="seller" />
    </div>
  );
}

/** /trade/shopping/trading/buy_pay/{id}: the buyer's payment instructions. */
export function BuyPayPage() {
  const { t } = useI18n();
  const { id } = useParams();
  if (!isRecordId(id)) return <NotFoundPage />;
  return (
    <div className="page" data-testid="page-buy-pay">
      <PageHeader title={t('web.p2p.pay.title')} backTo={`/trade/shopping/trading/buy_detail/${id}`} />
      <BuyPay key={id} id={id} />
    </div>
  );
}

/** /trade/shopping/trading/contact/{id}: the order's chat, full screen. */
export function ContactPage() {
  const { t } = useI18n();
  const { id } = useParams();
  if (!isRecordId(id)) return <NotFoundPage />;
  return (
    <div className="page" data-testid="page-contact">
      <PageHeader title={t('web.p2p.chat.title')} backTo="/trade/contact/list" />
      <OrderChatScreen key={id} id={id} />
    </div>
  );
}

/** /trade/contact/list: the chats of my orders. */
export function ContactListPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-contact-list">
      <PageHeader title={t('web.p2p.chats.title')} backTo="/trade/shopping" />
      <ChatList />
    </div>
  );
}

/** /orderlist: entrusted orders, in progress and completed. */
export function OrderListPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-orderlist">
      <PageHeader title={t('web.p2p.orders.title')} backTo="/trade/shopping" />
      <OrderList />
    </div>
  );
}
