import { Link, Navigate } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { chatPath, orderActions, orderPath } from './order-rules.ts';
import {
  BuyerPaymentActions,
  EscrowNotice,
  FiatAmount,
  OrderStatusBadge,
  OrderStatusMessage,
  P2pRefusalNotice,
  PaymentCountdown,
  UsdtAmount,
} from './P2pParts.tsx';
import { useOrderPage } from './useOrderPage.ts';

/**
 * /trade/shopping/trading/buy_pay/{id}: what the buyer pays, to whom, and by when. The fiat goes
 * from the buyer to the seller outside Keel, through the seller's contact; Keel holds the seller's
 * coins in escrow meanwhile and never asks the buyer to pay Keel anything. Then "I have paid".
 */
export function BuyPay({ id }: { id: string }) {
  const { t, tRich } = useI18n();
  const { order, problem, reload, now, step } = useOrderPage(id);

  if (problem === 'notFound') {
    return (
      <Notice tone="error" testId="order-not-found">
        {t('web.p2p.order.notFound')}
      </Notice>
    );
  }
  if (order === null) return problem === 'failed' ? <LoadFailedNotice onRetry={reload} /> : <p className="muted">{t('web.common.loading')}</p>;
  // The seller has nothing to pay: their page of the order.
  if (order.role !== 'buyer') return <Navigate to={orderPath(order)} replace />;
  const actions = orderActions(order, now);
  const awaiting = order.status === 'awaiting_payment';

  return (
    <div className="p2p-order" data-testid="buy-pay" data-order-id={order.id} data-status={order.status}>
      {problem === 'failed' && <LoadFailedNotice onRetry={reload} />}
      <Card className="card-accent p2p-pay">
        <div className="wallet-row-head">
          <span className="muted">
            {tRich('web.p2p.order.number', {
              orderNo: (
                <bdi key="no" dir="ltr" className="mono" data-testid="pay-order-no">
                  {order.orderNo}
                </bdi>
              ),
            })}
          </span>
          <OrderStatusBadge status={order.status} testId="order-status" />
        </div>
        {awaiting ? (
          <>
            <p className="p2p-pay-label">{t('web.p2p.pay.payExactly')}</p>
            <p className="p2p-pay-amount">
              <FiatAmount value={order.total} fiat={order.fiat} testId="pay-amount" />
            </p>
            <p className="muted">
              {tRich('web.p2p.pay.forQuantityFrom', {
                quantity: <UsdtAmount key="quantity" value={order.quantity} testId="pay-quantity" />,
                name: <bdi key="name">{order.sellerName}</bdi>,
              })}
            </p>
            <PaymentCountdown order={order} now={now} />
          </>
        ) : (
          <OrderStatusMessage order={order} />
        )}
      </Card>

      {awaiting && (
        <Card>
          <h2 className="card-title">{t('web.p2p.pay.howTitle')}</h2>
          <ol className="p2p-steps" data-testid="pay-steps">
            <li>
              {tRich('web.p2p.pay.step1', {
                amount: (
                  <strong key="amount">
                    <FiatAmount value={order.total} fiat={order.fiat} />
                  </strong>
                ),
              })}
            </li>
            <li>
              {t('web.p2p.pay.step2', { name: order.sellerName })}
              <p className="p2p-contact" data-testid="pay-contact">
                {order.sellerContact}
              </p>
            </li>
            <li>
              {tRich('web.p2p.pay.step3', {
                orderNo: (
                  <bdi key="no" dir="ltr" className="mono">
                    {order.orderNo}
                  </bdi>
                ),
              })}
            </li>
            <li>{t('web.p2p.pay.step4')}</li>
          </ol>
          {order.remark && (
            <p className="p2p-remark" data-testid="pay-remark">
              {t('web.p2p.order.remark')}: {order.remark}
            </p>
          )}
        </Card>
      )}

      <EscrowNotice testId="pay-escrow-note">
        <p data-testid="pay-never-keel">{t('web.p2p.pay.neverFee')}</p>
      </EscrowNotice>

      {step.refused && <P2pRefusalNotice refused={step.refused} testId="order-error" />}
      {(actions.markPaid || actions.cancel) && (
        <Card>
          <div className="wallet-actions">
            <BuyerPaymentActions order={order} actions={actions} step={step} testIds={{ markPaid: 'pay-mark-paid', cancel: 'pay-cancel' }} />
          </div>
        </Card>
      )}

      <nav className="wallet-links">
        <Link to={orderPath(order)} data-testid="pay-to-detail">
          {t('web.p2p.pay.toDetail')}
        </Link>
        <Link to={chatPath(order.id)} data-testid="pay-to-chat">
          {t('web.p2p.pay.toChat', { name: order.sellerName })}
        </Link>
      </nav>
    </div>
  );
}
