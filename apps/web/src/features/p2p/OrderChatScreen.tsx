import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { orderPath } from './order-rules.ts';
import { OrderChat } from './OrderChat.tsx';
import { OrderStatusBadge } from './P2pParts.tsx';
import { useOrder } from './useOrder.ts';

/** /trade/shopping/trading/contact/{id}: the order's chat full screen, under the order's number and state. */
export function OrderChatScreen({ id }: { id: string }) {
  const { t, tRich } = useI18n();
  const { order, problem, reload } = useOrder(id);
  if (problem === 'notFound') {
    return (
      <Notice tone="error" testId="order-not-found">
        {t('web.p2p.order.notFound')}
      </Notice>
    );
  }
  if (order === null) return problem === 'failed' ? <LoadFailedNotice onRetry={reload} /> : <p className="muted">{t('web.common.loading')}</p>;
  const counterparty = order.role === 'buyer' ? order.sellerName : order.buyerName;
  return (
    <div className="p2p-order" data-testid="chat-screen" data-order-id={order.id}>
      <div className="wallet-row-head p2p-chat-head">
        <Link to={orderPath(order)} data-testid="chat-to-order">
          {tRich('web.p2p.order.number', {
            orderNo: (
              <bdi key="no" dir="ltr" className="mono">
                {order.orderNo}
              </bdi>
            ),
          })}
        </Link>
        <OrderStatusBadge status={order.status} testId="order-status" />
      </div>
      <OrderChat orderId={order.id} counterparty={counterparty} />
    </div>
  );
}
