import { useEffect, useRef, useState } from 'react';
import { compareDecimal, isDecimal, parseDecimal } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useRealtimeStatus } from '../../shared/realtime/realtime.ts';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, Notice, Segmented } from '../../shared/ui/components.tsx';
import { StarIcon } from '../../shared/ui/icons.tsx';
import { ChangeTag } from './ChangeTag.tsx';
import type { Ticker } from './tickers.ts';
import { useTickers } from './useTickers.ts';
import { useWatchlist } from './useWatchlist.ts';

type View = 'all' | 'watchlist';
const VIEW_KEY = 'market-view';

const idOf = (symbol: string) => symbol.replace('/', '-');

function LiveMark() {
  const { t } = useI18n();
  const status = useRealtimeStatus();
  if (status === 'idle') return null;
  const live = status === 'open';
  return (
    <span className={live ? 'live-mark live' : 'live-mark'} data-testid="realtime-status" data-status={status}>
      <span className="live-dot" aria-hidden="true" />
      {live ? t('web.market.live') : t('web.market.connecting')}
    </span>
  );
}

/** Which way the price moved with its last tick, to flash it green or red. */
function useLastMove(price: string): 'up' | 'down' | null {
  const previous = useRef(price);
  const [move, setMove] = useState<'up' | 'down' | null>(null);
  useEffect(() => {
    const before = previous.current;
    previous.current = price;
    if (!isDecimal(before) || !isDecimal(price)) return;
    const order = compareDecimal(parseDecimal(price), parseDecimal(before));
    if (order !== 0) setMove(order > 0 ? 'up' : 'down');
  }, [price]);
  return move;
}

function MarketRow({ ticker, starred, onStar, canStar }: { ticker: Ticker; starred: boolean; onStar: () => void; canStar: boolean }) {
  const { t } = useI18n();
  const id = idOf(ticker.symbol);
  const move = useLastMove(ticker.last.price);
  return (
    <li className="market-row" data-testid={`market-${id}`}>
      <button
        type="button"
        className={starred ? 'star active' : 'star'}
        aria-pressed={starred}
        aria-label={starred ? t('web.market.unstar', { symbol: ticker.symbol }) : t('web.market.star', { symbol: ticker.symbol })}
        disabled={!canStar}
        onClick={onStar}
        data-testid={`star-${id}`}
      >
        <StarIcon filled={starred} />
      </button>
      <span className="market-symbol">
        <bdi dir="ltr">
          <strong>{ticker.base}</strong>
          <span className="muted">/{ticker.quote}</span>
        </bdi>
      </span>
      {/* Keyed by price so the flash plays again on every move. */}
      <span key={ticker.last.price} className={move ? `market-price flash-${move}` : 'market-price'}>
        <Amount value={ticker.last.price} max={8} testId={`price-${id}`} />
      </span>
      <ChangeTag change={ticker.change24hPct} testId={`change-${id}`} />
    </li>
  );
}

/**
 * The market list of the /news tab: every listed market with its last recorded price and 24 h
 * change, kept live by the push connection; "all" or only the user's watchlist.
 */
export function MarketList() {
  const { t } = useI18n();
  const { tickers, failed, reload } = useTickers();
  const watchlist = useWatchlist();
  const [view, setViewState] = useState<View>(() => (localStorage.getItem(VIEW_KEY) === 'watchlist' ? 'watchlist' : 'all'));

  function setView(next: View) {
    localStorage.setItem(VIEW_KEY, next);
    setViewState(next);
  }

  const starred = new Set(watchlist.symbols ?? []);
  const shown = (tickers ?? []).filter((ticker) => view === 'all' || starred.has(ticker.symbol));
  if (view === 'watchlist' && watchlist.symbols) {
    // The watchlist keeps the user's order.
    const order = new Map(watchlist.symbols.map((symbol, index) => [symbol, index]));
    shown.sort((a, b) => (order.get(a.symbol) ?? 0) - (order.get(b.symbol) ?? 0));
  }

  return (
    <Card className="market-card">
      <div className="market-head">
        <h2 className="card-title">{t('web.market.title')}</h2>
        <LiveMark />
      </div>
      <Segmented
        label={t('web.market.view')}
        value={view}
        onChange={setView}
        options={[
          { value: 'all', label: t('web.market.all'), testId: 'view-all' },
          { value: 'watchlist', label: t('web.market.watchlist'), testId: 'view-watchlist' },
        ]}
      />
      {failed && <LoadFailedNotice onRetry={reload} />}
      {watchlist.failed && <Notice tone="warning">{t('web.market.watchlistFailed')}</Notice>}
      {watchlist.saveFailed && <Notice tone="error">{t('web.market.watchlistSaveFailed')}</Notice>}
      {tickers === null ? (
        !failed && <p className="muted">{t('web.common.loading')}</p>
      ) : shown.length === 0 ? (
        <p className="muted" data-testid="market-empty">
          {view === 'watchlist' ? t('web.market.watchlistEmpty') : t('web.market.empty')}
        </p>
      ) : (
        <>
          <div className="market-columns muted" aria-hidden="true">
            <span>{t('web.market.pair')}</span>
            <span>{t('web.market.lastPrice')}</span>
            <span>{t('web.market.change24h')}</span>
          </div>
          <ul className="market-list" data-testid="market-list">
            {shown.map((ticker) => (
              <MarketRow
                key={ticker.symbol}
                ticker={ticker}
                starred={starred.has(ticker.symbol)}
                canStar={watchlist.symbols !== null}
                onStar={() => watchlist.toggle(ticker.symbol)}
              />
            ))}
          </ul>
        </>
      )}
      <p className="field-hint">{t('web.market.note')}</p>
    </Card>
  );
}
