import type { OptionOrder } from '@keel/contracts';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useRealtimeStatus } from '../../shared/realtime/realtime.ts';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice, SelectField, Segmented } from '../../shared/ui/components.tsx';
import { ShieldIcon } from '../../shared/ui/icons.tsx';
import { useAfterFirstPaint } from '../../shared/ui/useAfterFirstScreen.ts';
import { ChangeTag } from '../market/ChangeTag.tsx';
import type { Ticker } from '../market/tickers.ts';
import { useTickers } from '../market/useTickers.ts';
import { type CandleInterval, chartIntervals } from './candles.ts';
import { LAST_SYMBOL_KEY, tradePath } from './options-logic.ts';
import { OpenOrders, OrderHistory } from './OrderLists.tsx';
import { useCandles } from './useCandles.ts';
import { HISTORY_PAGE_SIZE, type OptionsData } from './useOptions.ts';
import './options.css';

// The chart library is loaded only with the chart: a chunk of its own, asked for once the page's
// first content is on the screen (its 53 KB would otherwise delay that paint).
const CandleChart = lazy(() => import('./CandleChart.tsx'));

// The order form (with the form library and the stake checks) is a chunk of its own too, asked for
// only when the overview says the user may trade: a user who still has to verify never downloads it.
const OrderForm = lazy(async () => ({ default: (await import('./OrderForm.tsx')).OrderForm }));

const INTERVAL_KEY = 'options-interval';

/** Where the order form would be, for a user whose identity is not verified yet (spec: contracts need it). */
function VerifyNotice() {
  const { t } = useI18n();
  return (
    <div className="options-gate" data-testid="options-verify-notice">
      <Notice tone="warning" title={t('web.options.verify.title')}>
        {t('web.options.verify.body')}
      </Notice>
      <Link to="/person/authentication" className="btn btn-primary btn-block" data-testid="options-verify-link">
        <ShieldIcon />
        {t('web.options.verify.action')}
      </Link>
    </div>
  );
}

const isInterval = (value: string | null): value is CandleInterval => (chartIntervals as readonly string[]).includes(value ?? '');

function MarketHeader({ symbol, symbols, ticker }: { symbol: string; symbols: readonly string[]; ticker: Ticker | undefined }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const status = useRealtimeStatus();
  return (
    <div className="options-market">
      <div className="options-market-picker">
        <SelectField
          label={t('web.options.market')}
          value={symbol}
          options={symbols.map((each) => ({ value: each, label: each }))}
          testId="options-symbol-picker"
          onChange={(value) => {
            if (!symbols.includes(value)) return;
            localStorage.setItem(LAST_SYMBOL_KEY, value);
            navigate(tradePath(value));
          }}
        />
      </div>
      <div className="options-market-price" aria-live="off">
        <span className="options-label">{t('web.options.lastPrice')}</span>
        {ticker ? (
          <>
            <span className="options-price">
              <Amount value={ticker.last.price} max={8} testId="options-price" />
            </span>
            <ChangeTag change={ticker.change24hPct} testId="options-change">
              <span className="muted options-change-label"> {t('web.options.change24h')}</span>
            </ChangeTag>
          </>
        ) : (
          <>
            <span className="options-price muted" data-testid="options-price-missing">
              —
            </span>
            {/* The change line's place, kept while the price is on its way so nothing below moves when it arrives. */}
            <span className="change" aria-hidden="true">
              &nbsp;
            </span>
          </>
        )}
        {/* Always in the layout (hidden before the connection starts), so its arrival moves nothing. */}
        <span className={status === 'open' ? 'live-mark live' : 'live-mark'} data-status={status}>
          <span className="live-dot" aria-hidden="true" />
          {status === 'open' ? t('web.market.live') : t('web.market.connecting')}
        </span>
      </div>
    </div>
  );
}

function ChartCard({ symbol }: { symbol: string }) {
  const { t } = useI18n();
  const [interval, setIntervalState] = useState<CandleInterval>(() => {
    const saved = localStorage.getItem(INTERVAL_KEY);
    return isInterval(saved) ? saved : '1m';
  });
  // The chart's library and its candles are asked for together, once the first content is shown.
  const chartLoads = useAfterFirstPaint();
  const { candles, failed, reload } = useCandles(symbol, interval, chartLoads);
  // Until the chart's library is asked for, and while it downloads.
  const chartLoading = <p className="muted options-chart-empty">{t('web.common.loading')}</p>;
  const intervalLabel = (value: CandleInterval) => t(`web.options.interval.${value}`);
  return (
    <Card className="options-card options-chart-card">
      <Segmented
        label={t('web.options.interval')}
        value={interval}
        onChange={(value) => {
          localStorage.setItem(INTERVAL_KEY, value);
          setIntervalState(value);
        }}
        options={chartIntervals.map((value) => ({ value, label: intervalLabel(value), testId: `options-interval-${value}` }))}
      />
      <div
        className="options-chart"
        data-testid="options-chart"
        data-interval={interval}
        data-candles={candles?.length ?? 0}
        data-last-close={candles?.at(-1)?.close ?? ''}
      >
        {failed && <LoadFailedNotice onRetry={reload} />}
        {candles !== null && candles.length === 0 && <p className="muted options-chart-empty">{t('web.options.chartEmpty')}</p>}
        {chartLoads ? (
          <Suspense fallback={chartLoading}>
            <CandleChart candles={candles ?? []} label={t('web.options.chartLabel', { symbol, interval: intervalLabel(interval) })} />
          </Suspense>
        ) : (
          chartLoading
        )}
      </div>
    </Card>
  );
}

/**
 * The short-cycle contract trade screen (issue 7) for one market: the market and its live price,
 * the candlestick chart, the order form (or the verification notice), the orders in progress and
 * the settled ones with both recorded ticks.
 */
export function OptionsTrade({ symbol, data }: { symbol: string; data: OptionsData }) {
  const { t } = useI18n();
  const { tickers } = useTickers();
  const ticker = tickers?.find((each) => each.symbol === symbol);
  const { overview, overviewFailed, open, history } = data;

  // Orders seen open on this screen that then appear settled: their history row opens by itself.
  const seenOpen = useRef(new Set<string>());
  const [justSettled, setJustSettled] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    for (const order of open?.items ?? []) seenOpen.current.add(order.id);
  }, [open]);
  useEffect(() => {
    const settled = (history?.items ?? []).filter((order) => seenOpen.current.has(order.id)).map((order) => order.id);
    if (settled.length === 0) return;
    for (const id of settled) seenOpen.current.delete(id);
    setJustSettled((current) => new Set([...current, ...settled]));
  }, [history]);

  const onPlaced = (order: OptionOrder) => {
    seenOpen.current.add(order.id);
    // The order shows at once; the placing call invalidated the lists, which refetch behind it.
    data.addOpen(order);
  };

  return (
    <>
      <Card className="options-card">
        <MarketHeader symbol={symbol} symbols={overview?.symbols ?? [symbol]} ticker={ticker} />
      </Card>
      <ChartCard symbol={symbol} />
      <Card className="options-card">
        <h2 className="card-title">{t('web.options.title')}</h2>
        {overviewFailed && <LoadFailedNotice onRetry={data.reloadOverview} />}
        {overview === null ? (
          !overviewFailed && <p className="muted">{t('web.common.loading')}</p>
        ) : !overview.identityVerified ? (
          <VerifyNotice />
        ) : (
          <Suspense fallback={<p className="muted">{t('web.common.loading')}</p>}>
            <OrderForm symbol={symbol} overview={overview} lastTick={ticker?.last ?? null} reloadOverview={data.reloadOverview} onPlaced={onPlaced} />
          </Suspense>
        )}
      </Card>
      {data.failed && <LoadFailedNotice onRetry={data.refresh} />}
      <OpenOrders orders={open?.items ?? null} />
      <OrderHistory
        orders={history?.items ?? null}
        total={history?.total ?? 0}
        page={data.historyPage}
        pageSize={HISTORY_PAGE_SIZE}
        onPage={data.setHistoryPage}
        justSettled={justSettled}
      />
    </>
  );
}
