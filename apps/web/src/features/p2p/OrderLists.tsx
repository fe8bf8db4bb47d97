import { listP2pOrdersContract } from '@keel/contracts';
import { Link, useSearchParams } from 'react-router';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Segmented } from '../../shared/ui/components.tsx';
import { ChevronIcon } from '../../shared/ui/icons.tsx';
import { PagedWalletList, WalletList } from '../wallet/WalletList.tsx';
import { Time } from '../wallet/WalletParts.tsx';
import { chatPath, orderPath, type P2pOrder } from './order-rules.ts';
import { FiatAmount, OrderStatusBadge, ShopLinks, UsdtAmount } from './P2pParts.tsx';

export type OrderScope = 'in_progress' | 'completed';

function OrderRow({ order, to, testId }: { order: P2pOrder; to: string; testId: string }) {
  const { t } = useI18n();
  return (
    <li className="wallet-row" data-testid={testId} data-role={order.role} data-status={order.status}>
      <Link to={to} className="wallet-row-link" data-testid="order-row-link">
        <div className="wallet-row-head">
          <bdi dir="ltr" className="mono" data-testid="order-row-no">
            {order.orderNo}
          </bdi>
          <OrderStatusBadge status={order.status} testId="order-row-status" />
        </div>
        <div className="wallet-row-main">
          <UsdtAmount value={order.quantity} testId="order-row-quantity" />
          <Time iso={order.createdAt} testId="order-row-time" />
        </div>
        <dl className="wallet-row-facts">
          <div>
            <dt>{t('web.p2p.order.role')}</dt>
            <dd data-testid="order-row-role">{order.role === 'buyer' ? t('web.p2p.role.buyer') : t('web.p2p.role.seller')}</dd>
          </div>
          <div>
            <dt>{order.role === 'buyer' ? t('web.p2p.order.seller') : t('web.p2p.order.buyer')}</dt>
            <dd data-testid="order-row-counterparty">{order.role === 'buyer' ? order.sellerName : order.buyerName}</dd>
          </div>
          <div>
            <dt>{t('web.p2p.order.total')}</dt>
            <dd>
              <FiatAmount value={order.total} fiat={order.fiat} testId="order-row-total" />
            </dd>
          </div>
        </dl>
        <span className="wallet-row-more">
          {t('web.p2p.orders.open')}
          <ChevronIcon />
        </span>
      </Link>
    </li>
  );
}

/**
 * /orderlist: the user's P2P orders as buyer or seller, newest first, under "In progress" (awaiting
 * payment, paid, under appeal) and "Completed"; the tab lives in the address (`?scope=completed`).
 * Each row opens the order on the page of the user's side.
 */
export function OrderList() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const scope: OrderScope = params.get('scope') === 'completed' ? 'completed' : 'in_progress';
  const list = usePagedQuery(listP2pOrdersContract, { scope });
  return (
    <>
      <Segmented<OrderScope>
        label={t('web.p2p.orders.title')}
        value={scope}
        options={[
          { value: 'in_progress', label: t('web.p2p.orders.inProgress'), testId: 'orders-tab-in-progress' },
          { value: 'completed', label: t('web.p2p.orders.completed'), testId: 'orders-tab-completed' },
        ]}
        onChange={(next) => setParams(next === 'completed' ? { scope: next } : {}, { replace: true })}
      />
      <PagedWalletList list={list} emptyText={scope === 'completed' ? t('web.p2p.orders.emptyCompleted') : t('web.p2p.orders.emptyInProgress')} testId="orders">
        {(order) => <OrderRow key={order.id} order={order} to={orderPath(order)} testId={`order-row-${order.id}`} />}
      </PagedWalletList>
      <ShopLinks except="orders" />
    </>
  );
}

/** How many of the newest orders of each scope the chat list looks at. */
const CHAT_LIST_SIZE = 50;

/**
 * /trade/contact/list: the chats of my orders (every order has one), newest order first, open ones
 * and finished ones together, each opening the chat full screen.
 */
export function ChatList() {
  const { t } = useI18n();
  const open = useContractQuery(listP2pOrdersContract, { query: { page: 1, pageSize: CHAT_LIST_SIZE, scope: 'in_progress' } });
  const done = useContractQuery(listP2pOrdersContract, { query: { page: 1, pageSize: CHAT_LIST_SIZE, scope: 'completed' } });
  const orders =
    open.data && done.data
      ? // Newest first: ids grow with time (the server's own order within each scope).
        [...open.data.items, ...done.data.items].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0))
      : null;
  const source = {
    failed: loadFailed(open) || loadFailed(done),
    reload: () => {
      void open.refetch();
      void done.refetch();
    },
  };

  return (
    <>
      <WalletList source={source} items={orders} emptyText={t('web.p2p.chats.empty')} testId="chat-list">
        {(order) => <OrderRow key={order.id} order={order} to={chatPath(order.id)} testId={`chat-row-${order.id}`} />}
      </WalletList>
      <ShopLinks except="chats" />
    </>
  );
}
