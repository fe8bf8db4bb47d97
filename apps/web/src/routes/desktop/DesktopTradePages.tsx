import { Link } from 'react-router';
import { EarnProducts } from '../../features/earn/EarnProducts.tsx';
import { symbolId } from '../../features/options/options-logic.ts';
import type { LeverageProduct } from '../../features/leverage/leverage-logic.ts';
import { LeverageChart, LeverageMarket, LeverageNoMarket, LeverageOrder } from '../../features/leverage/LeverageTrade.tsx';
import { Positions } from '../../features/leverage/Positions.tsx';
import { useLeverageScreen } from '../../features/leverage/useLeverageScreen.ts';
import { ChangeTag } from '../../features/market/ChangeTag.tsx';
import type { Ticker } from '../../features/market/tickers.ts';
import { useTickers } from '../../features/market/useTickers.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { NotFoundPage } from '../mobile/error/ErrorPages.tsx';

const desktopTradePaths: Record<LeverageProduct, string> = {
  leveraged: '/web/trade/LeveragedTrading',
  futures: '/web/trade/FuturesTrading',
};

/** The desktop screen of a product on a market. */
const desktopLeveragePath = (product: LeverageProduct, symbol: string) => `${desktopTradePaths[product]}?symbol=${encodeURIComponent(symbol)}`;

/** The left column: the product's markets with their live last price and 24 h change, each a link to its screen. */
function MarketsColumn({ product, symbols, shown, tickers }: { product: LeverageProduct; symbols: readonly string[]; shown: string; tickers: readonly Ticker[] | null }) {
  const { t } = useI18n();
  return (
    <nav className="desktop-trade-markets card" aria-label={t('web.desktop.trade.markets')} data-testid="desktop-trade-markets">
      <h2 className="card-title">{t('web.desktop.trade.markets')}</h2>
      <ul>
        {symbols.map((symbol) => {
          const ticker = tickers?.find((each) => each.symbol === symbol);
          return (
            <li key={symbol}>
              <Link
                to={desktopLeveragePath(product, symbol)}
                aria-current={symbol === shown ? 'page' : undefined}
                data-testid={`desktop-market-${symbolId(symbol)}`}
              >
                <bdi dir="ltr" className="desktop-market-symbol">
                  {symbol}
                </bdi>
                {ticker ? <Amount value={ticker.last.price} max={8} /> : <span className="muted">—</span>}
                {ticker && <ChangeTag change={ticker.change24hPct} />}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * A desktop leverage trade screen (issue 21, ADR 0048): the three columns traders expect — the
 * markets, the market with its chart, the order form — and the positions, orders and history below,
 * each the mobile screen's feature part (features/leverage), on the same data (useLeverageScreen).
 */
function DesktopLeveragePage({ product }: { product: LeverageProduct }) {
  const { t } = useI18n();
  const { choice, shown, data } = useLeverageScreen(product);
  const { tickers } = useTickers();
  if (choice === 'notFound') return <NotFoundPage />;
  const ticker = tickers?.find((each) => each.symbol === shown);
  return (
    <div className="desktop-trade" data-testid={`leverage-page-${product}`} data-symbol={shown ?? ''}>
      <h1 className="desktop-trade-title">{t(product === 'futures' ? 'web.leverage.title.futures' : 'web.leverage.title.leveraged')}</h1>
      {shown !== null ? (
        <div className="desktop-trade-grid">
          <MarketsColumn product={product} symbols={data.overview?.symbols ?? [shown]} shown={shown} tickers={tickers} />
          <div className="desktop-trade-centre">
            <LeverageMarket
              product={product}
              symbol={shown}
              overview={data.overview}
              ticker={ticker}
              mark={data.markOf(shown)}
              pathFor={(symbol) => desktopLeveragePath(product, symbol)}
            />
            <LeverageChart symbol={shown} />
          </div>
          <div className="desktop-trade-order">
            <LeverageOrder data={data} symbol={shown} ticker={ticker} onOpened={data.addOpen} />
          </div>
          <div className="desktop-trade-below">
            <Positions data={data} tickers={tickers} />
          </div>
        </div>
      ) : (
        <LeverageNoMarket data={data} />
      )}
    </div>
  );
}

/** /web/trade/LeveragedTrading */
export function DesktopLeveragedPage() {
  return <DesktopLeveragePage key="leveraged" product="leveraged" />;
}

/** /web/trade/FuturesTrading */
export function DesktopFuturesPage() {
  return <DesktopLeveragePage key="futures" product="futures" />;
}

/** /web/trade/LockUpMining: the lock-up products (features/earn; its switch leads to financial products and the user's subscriptions). */
export function DesktopLockUpPage() {
  const { t } = useI18n();
  return (
    <div className="desktop-reading page earn-page" data-testid="earn-page-lockup">
      <h1 className="page-title">{t('web.earn.title.lockup')}</h1>
      <EarnProducts kind="lockup" />
    </div>
  );
}
