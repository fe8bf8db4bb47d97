import type { LeverageOverview, LeveragePosition } from '@keel/contracts';
import { lazy, Suspense, useState } from 'react';
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
import { type CandleInterval, chartIntervals } from '../options/candles.ts';
import { Sheet } from '../options/Sheet.tsx';
import { useCandles } from '../options/useCandles.ts';
import { LAST_LEVERAGE_SYMBOL_KEY, type LeverageProduct, leveragePath, ppmPercent, secondsText } from './leverage-logic.ts';
import { BracketsTable, LeverageRuleList, TickIds, timeText, useNumberText } from './LeverageParts.tsx';
import type { ShownMark } from './mark-prices.ts';
import { LeverageOrderForm } from './LeverageOrderForm.tsx';
import { Positions } from './Positions.tsx';
import type { LeverageData } from './useLeverage.ts';
import './leverage.css';

// The chart library, with its candles, once the page's first content is on the screen (as the
// contract screen loads it: the same chunk).
const CandleChart = lazy(() => import('../options/CandleChart.tsx'));


/** The candle interval is the same choice as on the contract screen. */
const INTERVAL_KEY = 'options-interval';
const isInterval = (value: string | null): value is CandleInterval => (chartIntervals as readonly string[]).includes(value ?? '');

/** The published rules of the overview, for a market: its funding rate (futures) or the interest rate (leveraged). */
export function chargeRateText(overview: LeverageOverview, product: LeverageProduct, symbol: string): string {
  if (product === 'leveraged') return ppmPercent(overview.rules.interestRatePpmPerHour);
  const rate = overview.rules.fundingRates.find((each) => each.symbol === symbol);
  return ppmPercent(rate?.ratePpm ?? 0);
}

/** The mark price: its value, and what it is made of in a sheet with the published rules. */
function MarkPrice({ mark, onInfo }: { mark: ShownMark | null; onInfo: () => void }) {
  const { t } = useI18n();
  return (
    <div className="leverage-mark">
      <span className="options-label">{t('web.leverage.markPrice')}</span>
      <span className="leverage-mark-value">
        {mark ? (
          <Amount value={mark.price} max={8} testId="leverage-mark-price" />
        ) : (
          <span className="muted" data-testid="leverage-mark-missing">
            —
          </span>
        )}
        <button
          type="button"
          className="leverage-info"
          onClick={onInfo}
          aria-label={t('web.leverage.rules.open')}
          title={t('web.leverage.rules.open')}
          data-testid="leverage-rules-open"
          data-tick-ids={mark?.tickIds.join(',') ?? ''}
        >
          <span aria-hidden="true">i</span>
        </button>
      </span>
    </div>
  );
}

/** The published rules: the mark price and the ticks it is made of now, fees, spread, liquidation, funding or interest, brackets, the exposure limit. */
export function RulesSheet({
  product,
  symbol,
  overview,
  mark,
  ticker,
  onClose,
}: {
  product: LeverageProduct;
  symbol: string;
  overview: LeverageOverview;
  mark: ShownMark | null;
  ticker: Ticker | undefined;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const num = useNumberText();
  const { rules } = overview;
  const brackets = overview.products.find((each) => each.product === product)?.brackets ?? [];
  const markRule = rules.markPrice;
  return (
    <Sheet title={t('web.leverage.rules.title')} onClose={onClose} testId="leverage-rules-sheet">
      <section className="leverage-rules-section" aria-labelledby="leverage-rules-mark">
        <h3 id="leverage-rules-mark" className="leverage-rules-heading">
          {t('web.leverage.markPrice')} · <bdi dir="ltr">{symbol}</bdi>
        </h3>
        <p className="options-rule" data-testid="leverage-mark-rule">
          {t('web.leverage.mark.rule', { ticks: markRule.ticks, seconds: num(secondsText(markRule.windowMs)), min: markRule.minTicks })}
        </p>
        {mark ? (
          <dl className="facts">
            <div className="facts-strong">
              <dt>{t('web.leverage.markPrice')}</dt>
              <dd>
                <Amount value={mark.price} max={8} testId="leverage-rules-mark-price" />
              </dd>
            </div>
            <div>
              <dt>{t('web.leverage.mark.ticks')}</dt>
              <dd>
                <TickIds ids={mark.tickIds} testId="leverage-rules-mark-ticks" />
              </dd>
            </div>
            <div>
              <dt>{t('web.leverage.mark.newest')}</dt>
              <dd className="num">{timeText(mark.atMs)}</dd>
            </div>
          </dl>
        ) : (
          <p className="muted" data-testid="leverage-rules-no-mark">
            {t('web.leverage.mark.none', { min: markRule.minTicks, seconds: num(secondsText(markRule.windowMs)) })}
          </p>
        )}
        {mark && <p className="field-hint">{t(mark.from === 'ticks' ? 'web.leverage.mark.fromTicks' : 'web.leverage.mark.fromServer')}</p>}
        {ticker && (
          <p className="field-hint" data-testid="leverage-rules-last-tick">
            {t('web.leverage.rules.lastTick', { id: ticker.last.tickId, time: timeText(ticker.last.atMs), source: ticker.last.source })}
          </p>
        )}
      </section>
      <section className="leverage-rules-section" aria-labelledby="leverage-rules-costs">
        <h3 id="leverage-rules-costs" className="leverage-rules-heading">
          {t('web.leverage.rules.costs')}
        </h3>
        <LeverageRuleList
          rules={rules}
          charge={
            product === 'futures'
              ? t('web.leverage.rules.funding', { hours: rules.fundingIntervalHours, rate: num(chargeRateText(overview, product, symbol)) })
              : t('web.leverage.rules.interest', { rate: num(chargeRateText(overview, product, symbol)) })
          }
        />
      </section>
      <BracketsTable brackets={brackets} />
    </Sheet>
  );
}

/** The market picker, its live last price and mark price, and the funding or interest rate. */
export function LeverageMarket({
  product,
  symbol,
  overview,
  ticker,
  mark,
  pathFor = (each) => leveragePath(product, each),
}: {
  product: LeverageProduct;
  symbol: string;
  overview: LeverageOverview | null;
  ticker: Ticker | undefined;
  mark: ShownMark | null;
  /** The address of the screen on another market (the desktop site's own, ADR 0048). */
  pathFor?: (symbol: string) => string;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const status = useRealtimeStatus();
  const [rulesOpen, setRulesOpen] = useState(false);
  const symbols = overview?.symbols ?? [symbol];
  return (
    <Card className="options-card">
      <div className="options-market">
        <div className="options-market-picker">
          <SelectField
            label={t('web.options.market')}
            value={symbol}
            options={symbols.map((each) => ({ value: each, label: each }))}
            testId="leverage-symbol-picker"
            onChange={(value) => {
              if (!symbols.includes(value)) return;
              localStorage.setItem(LAST_LEVERAGE_SYMBOL_KEY, value);
              navigate(pathFor(value));
            }}
          />
        </div>
        <div className="options-market-price" aria-live="off">
          <span className="options-label">{t('web.options.lastPrice')}</span>
          {ticker ? (
            <>
              <span className="options-price">
                <Amount value={ticker.last.price} max={8} testId="leverage-last-price" />
              </span>
              <ChangeTag change={ticker.change24hPct} testId="leverage-change">
                <span className="muted options-change-label"> {t('web.options.change24h')}</span>
              </ChangeTag>
            </>
          ) : (
            <>
              <span className="options-price muted" data-testid="leverage-last-price-missing">
                —
              </span>
              <span className="change" aria-hidden="true">
                &nbsp;
              </span>
            </>
          )}
          <span className={status === 'open' ? 'live-mark live' : 'live-mark'} data-status={status}>
            <span className="live-dot" aria-hidden="true" />
            {status === 'open' ? t('web.market.live') : t('web.market.connecting')}
          </span>
        </div>
      </div>
      <div className="leverage-market-line">
        <MarkPrice mark={mark} onInfo={() => setRulesOpen(true)} />
        {overview && (
          <div className="leverage-rate" data-testid="leverage-charge-rate">
            <span className="options-label">
              {product === 'futures' ? t('web.leverage.fundingRate', { hours: overview.rules.fundingIntervalHours }) : t('web.leverage.interestRate')}
            </span>
            <Amount value={chargeRateText(overview, product, symbol)} min={0} suffix=" %" />
          </div>
        )}
      </div>
      {rulesOpen && overview && (
        <RulesSheet product={product} symbol={symbol} overview={overview} mark={mark} ticker={ticker} onClose={() => setRulesOpen(false)} />
      )}
    </Card>
  );
}

/** The candlestick chart of the market, live over `/ws` (the contract screen's chart). */
export function LeverageChart({ symbol }: { symbol: string }) {
  const { t } = useI18n();
  const [interval, setIntervalState] = useState<CandleInterval>(() => {
    const saved = localStorage.getItem(INTERVAL_KEY);
    return isInterval(saved) ? saved : '1m';
  });
  const chartLoads = useAfterFirstPaint();
  const { candles, failed, reload } = useCandles(symbol, interval, chartLoads);
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
        options={chartIntervals.map((value) => ({ value, label: intervalLabel(value), testId: `leverage-interval-${value}` }))}
      />
      <div className="options-chart" data-testid="leverage-chart" data-interval={interval} data-candles={candles?.length ?? 0} data-last-close={candles?.at(-1)?.close ?? ''}>
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

/** Where the order form would be, for a user whose identity is not verified yet (spec section 5). */
function VerifyNotice() {
  const { t } = useI18n();
  return (
    <div className="options-gate" data-testid="leverage-verify-notice">
      <Notice tone="warning" title={t('web.options.verify.title')}>
        {t('web.leverage.verify.body')}
      </Notice>
      <Link to="/person/authentication" className="btn btn-primary btn-block" data-testid="leverage-verify-link">
        <ShieldIcon />
        {t('web.options.verify.action')}
      </Link>
    </div>
  );
}

/** The order card: the form for a verified user, the verification notice for anyone else. */
export function LeverageOrder({
  data,
  symbol,
  ticker,
  onOpened,
}: {
  data: LeverageData;
  symbol: string;
  ticker: Ticker | undefined;
  onOpened: (position: LeveragePosition) => void;
}) {
  const { t } = useI18n();
  const { overview, overviewFailed, product } = data;
  return (
    <Card className="options-card">
      <h2 className="card-title">{t('web.leverage.order.title')}</h2>
      {overviewFailed && <LoadFailedNotice onRetry={data.reloadOverview} />}
      {overview === null ? (
        !overviewFailed && <p className="muted">{t('web.common.loading')}</p>
      ) : !overview.identityVerified ? (
        <VerifyNotice />
      ) : (
        <LeverageOrderForm
          product={product}
          symbol={symbol}
          overview={overview}
          lastTick={ticker?.last ?? null}
          reloadOverview={data.reloadOverview}
          onOpened={onOpened}
        />
      )}
    </Card>
  );
}

/**
 * A leverage trade screen (issue 16) for one product and market: the market with its live last and
 * mark prices, the chart, the order form (or the verification notice), then the positions — open,
 * history, and the funding or interest records. Each part takes the screen's data and can stand in
 * a column of its own (a desktop layout can place them side by side).
 */
export function LeverageTrade({ symbol, data }: { symbol: string; data: LeverageData }) {
  const { tickers } = useTickers();
  const ticker = tickers?.find((each) => each.symbol === symbol);
  return (
    <>
      <LeverageMarket product={data.product} symbol={symbol} overview={data.overview} ticker={ticker} mark={data.markOf(symbol)} />
      <LeverageChart symbol={symbol} />
      <LeverageOrder data={data} symbol={symbol} ticker={ticker} onOpened={data.addOpen} />
      <Positions data={data} tickers={tickers} />
    </>
  );
}

/** What a leverage screen shows with no market to show: the overview failed, has no markets, or is loading. */
export function LeverageNoMarket({ data }: { data: Pick<LeverageData, 'overview' | 'overviewFailed' | 'reloadOverview'> }) {
  const { t } = useI18n();
  if (data.overviewFailed) return <LoadFailedNotice onRetry={data.reloadOverview} />;
  if (data.overview !== null)
    return (
      <p className="muted" data-testid="leverage-no-markets">
        {t('web.leverage.noMarkets')}
      </p>
    );
  return <p className="muted">{t('web.common.loading')}</p>;
}
