import type { OptionOrder } from '@keel/contracts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card } from '../../shared/ui/components.tsx';
import { ClockIcon } from '../../shared/ui/icons.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { countdownText, remainingMs, resultOf, secondsLeft } from './options-logic.ts';
import { DirectionTag, resultKeys, TickFacts, useCycleText } from './OptionsParts.tsx';
import { serverClock } from './useOptions.ts';

const time = (ms: number) => formatDateTime(new Date(ms).toISOString());

function OpenOrderRow({ order, now }: { order: OptionOrder; now: number }) {
  const { t } = useI18n();
  const cycleText = useCycleText();
  const left = remainingMs(order, now, serverClock.skewMs());
  const seconds = secondsLeft(left);
  const total = order.cycleSeconds;
  return (
    <li className="options-order" data-testid="options-open-order" data-order-id={order.id}>
      <div className="options-order-head">
        <bdi dir="ltr" className="options-order-symbol">
          {order.symbol}
        </bdi>
        <DirectionTag direction={order.direction} />
        <span className="muted">{cycleText(order.cycleSeconds)}</span>
        {seconds > 0 ? (
          <span
            className="options-countdown"
            data-testid="options-countdown"
            data-seconds={seconds}
            role="timer"
            aria-label={t('web.options.open.remaining', { seconds })}
          >
            <ClockIcon />
            <span className="num">{countdownText(left)}</span>
          </span>
        ) : (
          <span className="options-countdown settling" data-testid="options-settling" role="status">
            <span className="spinner" aria-hidden="true" />
            {t('web.options.open.settling')}
          </span>
        )}
      </div>
      <span
        className="options-progress"
        role="progressbar"
        aria-label={t('web.options.open.timeLeft')}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={seconds}
        style={{ inlineSize: `${(100 * seconds) / Math.max(1, total)}%` }}
      />
      <dl className="facts options-order-facts">
        <div>
          <dt>{t('web.options.stake')}</dt>
          <dd>
            <Amount value={order.stake} unit="USDT" testId="options-open-stake" />
          </dd>
        </div>
        <div>
          <dt>{t('web.options.openPrice')}</dt>
          <dd>
            <Amount value={order.openTick.price} max={8} testId="options-open-price" />
          </dd>
        </div>
        <div>
          <dt>{t('web.options.expectedProfit')}</dt>
          <dd>
            <Amount value={order.expectedProfit} unit="USDT" testId="options-open-profit" />
          </dd>
        </div>
        <div>
          <dt>{t('web.options.expiresAt')}</dt>
          <dd className="num">{time(order.expiresAtMs)}</dd>
        </div>
      </dl>
    </li>
  );
}

/** Orders in progress, soonest expiry first, each with its live countdown; "settling…" after it. */
export function OpenOrders({ orders }: { orders: readonly OptionOrder[] | null }) {
  const { t } = useI18n();
  const now = useNow((orders?.length ?? 0) > 0, 250);
  return (
    <Card className="options-card">
      <h2 className="card-title">{t('web.options.open.title')}</h2>
      {orders === null ? (
        <p className="muted">{t('web.common.loading')}</p>
      ) : orders.length === 0 ? (
        <p className="muted" data-testid="options-open-empty">
          {t('web.options.open.empty')}
        </p>
      ) : (
        <ul className="options-orders" data-testid="options-open-orders">
          {orders.map((order) => (
            <OpenOrderRow key={order.id} order={order} now={now} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function HistoryRow({ order, expanded }: { order: OptionOrder; expanded: boolean }) {
  const { t } = useI18n();
  const cycleText = useCycleText();
  const result = resultOf(order);
  return (
    <li className="options-order" data-testid="options-history-row" data-order-id={order.id} data-status={order.status}>
      <details open={expanded || undefined}>
        <summary className="options-history-summary">
          <span className="options-order-head">
            <bdi dir="ltr" className="options-order-symbol">
              {order.symbol}
            </bdi>
            <DirectionTag direction={order.direction} />
            <span className="muted">{cycleText(order.cycleSeconds)}</span>
          </span>
          <span className="options-history-outcome">
            <span className={`options-result ${result}`} data-testid="options-result" data-result={result}>
              {t(resultKeys[result])}
            </span>
            {order.actualProfit !== null && <Amount value={order.actualProfit} unit="USDT" signed testId="options-actual-profit" />}
          </span>
        </summary>
        <dl className="facts options-order-facts">
          <div>
            <dt>{t('web.options.orderNo')}</dt>
            <dd className="mono" data-testid="options-order-no">
              {order.orderNo}
            </dd>
          </div>
          <div>
            <dt>{t('web.options.placedAt')}</dt>
            <dd className="num" data-testid="options-placed-at">
              {time(order.placedAtMs)}
            </dd>
          </div>
          <div>
            <dt>{t('web.options.stake')}</dt>
            <dd>
              <Amount value={order.stake} unit="USDT" testId="options-history-stake" />
            </dd>
          </div>
          <div>
            <dt>{t('web.options.openPrice')}</dt>
            <dd>
              <Amount value={order.openTick.price} max={8} testId="options-history-open-price" />
            </dd>
          </div>
          <div>
            <dt>{t('web.options.closePrice')}</dt>
            <dd>{order.closeTick ? <Amount value={order.closeTick.price} max={8} testId="options-history-close-price" /> : '—'}</dd>
          </div>
          <div>
            <dt>{t('web.options.expectedProfit')}</dt>
            <dd>
              <Amount value={order.expectedProfit} unit="USDT" testId="options-history-expected" />
            </dd>
          </div>
          <div className="facts-strong">
            <dt>{t('web.options.actualProfit')}</dt>
            <dd>{order.actualProfit !== null ? <Amount value={order.actualProfit} unit="USDT" signed /> : '—'}</dd>
          </div>
          {order.settledAtMs !== null && (
            <div>
              <dt>{t('web.options.settledAt')}</dt>
              <dd className="num">{time(order.settledAtMs)}</dd>
            </div>
          )}
        </dl>
        <div className="options-ticks">
          <TickFacts tick={order.openTick} testId="options-open-tick" label={t('web.options.tick.open')} />
          {order.closeTick ? (
            <TickFacts tick={order.closeTick} testId="options-close-tick" label={t('web.options.tick.close')} />
          ) : (
            <p className="muted" data-testid="options-no-close-tick">
              {t('web.options.tick.none')}
            </p>
          )}
          {order.status === 'void' && <p className="field-hint">{t('web.options.voidNote')}</p>}
        </div>
      </details>
    </li>
  );
}

/**
 * Settled orders, newest first: the result and, opened, everything about it — both recorded
 * ticks with time, price, source and id. Orders that settled while this screen was open are opened
 * at once, so the user sees how they ended.
 */
export function OrderHistory({
  orders,
  total,
  page,
  pageSize,
  onPage,
  justSettled,
}: {
  orders: readonly OptionOrder[] | null;
  total: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  justSettled: ReadonlySet<string>;
}) {
  const { t } = useI18n();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Card className="options-card">
      <h2 className="card-title">{t('web.options.history.title')}</h2>
      {orders === null ? (
        <p className="muted">{t('web.common.loading')}</p>
      ) : orders.length === 0 ? (
        <p className="muted" data-testid="options-history-empty">
          {t('web.options.history.empty')}
        </p>
      ) : (
        <ul className="options-orders" data-testid="options-history">
          {orders.map((order) => (
            <HistoryRow key={order.id} order={order} expanded={justSettled.has(order.id)} />
          ))}
        </ul>
      )}
      {pages > 1 && (
        <nav className="options-pager" aria-label={t('web.options.history.pages')}>
          <Button variant="ghost" className="btn-small" disabled={page <= 1} onClick={() => onPage(page - 1)} data-testid="options-history-prev">
            {t('web.options.history.newer')}
          </Button>
          <span className="muted">{t('web.options.history.page', { page, pages })}</span>
          <Button variant="ghost" className="btn-small" disabled={page >= pages} onClick={() => onPage(page + 1)} data-testid="options-history-next">
            {t('web.options.history.older')}
          </Button>
        </nav>
      )}
    </Card>
  );
}
