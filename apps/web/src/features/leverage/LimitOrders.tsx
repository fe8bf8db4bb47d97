import { ApiError, cancelLimitOrderContract, getLeverageOverviewContract, type LeverageLimitOrder, listAccountsContract, listLimitOrdersContract, listPositionsContract, listRecordsContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { invalidateContracts } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Notice } from '../../shared/ui/components.tsx';
import { TickFacts } from '../options/OptionsParts.tsx';
import { LeverageTag, SideTag, timeText } from './LeverageParts.tsx';
import type { LeverageData } from './useLeverage.ts';

const statusKeys = {
  pending: 'web.leverage.orders.pending',
  filled: 'web.leverage.orders.filled',
  cancelled: 'web.leverage.orders.cancelled',
} as const satisfies Record<LeverageLimitOrder['status'], MessageKey>;

/** One limit order: its terms, what is frozen for it, and once filled the recorded tick that filled it. */
function OrderRow({ order, onCancel, busy }: { order: LeverageLimitOrder; onCancel?: () => void; busy?: boolean }) {
  const { t } = useI18n();
  const asset = order.symbol.split('/')[0] ?? '';
  return (
    <li className="options-order" data-testid="leverage-order" data-order-id={order.id} data-status={order.status}>
      <div className="options-order-head">
        <bdi dir="ltr" className="options-order-symbol">
          {order.symbol}
        </bdi>
        <SideTag side={order.side} />
        <LeverageTag leverage={order.leverage} />
        <span className={`options-result leverage-order-status ${order.status}`} data-testid="leverage-order-status">
          {t(statusKeys[order.status])}
        </span>
      </div>
      <dl className="facts options-order-facts">
        <div className="facts-strong">
          <dt>{t('web.leverage.limitLabel')}</dt>
          <dd data-testid="leverage-order-limit">
            <Amount value={order.limitPrice} max={8} />
          </dd>
        </div>
        <div>
          <dt>{t('web.leverage.margin')}</dt>
          <dd>
            <Amount value={order.margin} unit="USDT" />
          </dd>
        </div>
        <div>
          <dt>{t('web.leverage.orders.fee')}</dt>
          <dd>
            <Amount value={order.fee} unit="USDT" />
          </dd>
        </div>
        <div>
          <dt>{t('web.leverage.notional')}</dt>
          <dd>
            <Amount value={order.notional} unit="USDT" />
          </dd>
        </div>
        {order.takeProfitPrice !== null && (
          <div>
            <dt>{t('web.leverage.takeProfit')}</dt>
            <dd>
              <Amount value={order.takeProfitPrice} max={8} />
            </dd>
          </div>
        )}
        {order.stopLossPrice !== null && (
          <div>
            <dt>{t('web.leverage.stopLoss')}</dt>
            <dd>
              <Amount value={order.stopLossPrice} max={8} />
            </dd>
          </div>
        )}
        <div>
          <dt>{t('web.leverage.orders.orderNo')}</dt>
          <dd className="mono">{order.orderNo}</dd>
        </div>
        <div>
          <dt>{t('web.leverage.orders.placedAt')}</dt>
          <dd className="num">{timeText(order.placedAtMs)}</dd>
        </div>
        {order.closedAtMs !== null && (
          <div>
            <dt>{t(order.status === 'filled' ? 'web.leverage.orders.filledAt' : 'web.leverage.orders.cancelledAt')}</dt>
            <dd className="num">{timeText(order.closedAtMs)}</dd>
          </div>
        )}
        <div>
          <dt>{t('web.leverage.event.entry')}</dt>
          <dd className="mono">{[order.placeEntryId, order.closeEntryId].filter((id) => id !== null).join(', ')}</dd>
        </div>
      </dl>
      {order.fillTick && <TickFacts tick={order.fillTick} testId="leverage-order-fill-tick" label={t('web.leverage.tick.fired')} />}
      {order.status === 'pending' && (
        <>
          <p className="field-hint">{t('web.leverage.orders.waiting', { asset })}</p>
          <Button variant="secondary" className="btn-small" busy={busy} onClick={onCancel} data-testid="leverage-order-cancel">
            {t('web.leverage.orders.cancel')}
          </Button>
        </>
      )}
    </li>
  );
}

/** The product's limit orders: those waiting for their price (each can be cancelled), then the latest filled or cancelled. */
export function LimitOrders({ data }: { data: LeverageData }) {
  const { t, tServer } = useI18n();
  const client = useQueryClient();
  const actionKey = useActionKey();
  const [error, setError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const cancel = useContractMutation(cancelLimitOrderContract, {
    onSuccess: () =>
      void invalidateContracts(client, [listLimitOrdersContract, listPositionsContract, getLeverageOverviewContract, listAccountsContract, listRecordsContract]),
  });
  const pending = data.pendingOrders?.items ?? null;
  const past = data.pastOrders?.items ?? [];

  async function cancelOrder(order: LeverageLimitOrder) {
    setError(null);
    setCancelling(order.id);
    try {
      await cancel.mutateAsync({ params: { orderId: order.id }, idempotencyKey: actionKey.keyFor(order.id) });
      actionKey.settle();
    } catch (caught) {
      actionKey.settle(caught);
      if (!isSessionError(caught)) setError(caught instanceof ApiError ? tServer(caught.message) : t('web.leverage.actionUncertain'));
    } finally {
      setCancelling(null);
    }
  }

  return (
    <div className="leverage-orders" data-testid="leverage-orders">
      {error && (
        <Notice tone="error" testId="leverage-order-error">
          {error}
        </Notice>
      )}
      {pending === null ? (
        <p className="muted">{t('web.common.loading')}</p>
      ) : pending.length === 0 ? (
        <p className="muted" data-testid="leverage-orders-empty">
          {t('web.leverage.orders.empty')}
        </p>
      ) : (
        <ul className="options-orders" data-testid="leverage-pending-orders">
          {pending.map((order) => (
            <OrderRow key={order.id} order={order} busy={cancelling === order.id} onCancel={() => void cancelOrder(order)} />
          ))}
        </ul>
      )}
      {past.length > 0 && (
        <>
          <h3 className="leverage-rules-heading">{t('web.leverage.orders.past')}</h3>
          <ul className="options-orders" data-testid="leverage-past-orders">
            {past.map((order) => (
              <OrderRow key={order.id} order={order} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
