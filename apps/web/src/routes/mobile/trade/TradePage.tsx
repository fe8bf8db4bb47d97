import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { chooseSymbol, LAST_SYMBOL_KEY, tradeIdOf } from '../../../features/options/options-logic.ts';
import { OptionsTrade } from '../../../features/options/OptionsTrade.tsx';
import { useOptions } from '../../../features/options/useOptions.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { LoadFailedNotice } from '../../../shared/ui/components.tsx';
import { RecordsIcon, WalletIcon } from '../../../shared/ui/icons.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

/** The tab's other trading: the fiat shop (P2P) and the user's P2P orders. */
function TradeLinks() {
  const { t } = useI18n();
  return (
    <nav className="options-links" aria-label={t('web.options.otherTrading')}>
      <Link to="/trade/shopping" className="options-link" data-testid="trade-to-shop">
        <WalletIcon />
        <span>{t('web.p2p.trade.shop')}</span>
      </Link>
      <Link to="/orderlist" className="options-link" data-testid="trade-to-orders">
        <RecordsIcon />
        <span>{t('web.p2p.orders.title')}</span>
      </Link>
    </nav>
  );
}

/**
 * /trade and /trade_{id}: the short-cycle contract trade screen. `{id}` is the market's symbol
 * without its slash (`/trade_BTCUSDT`, any case); /trade shows the market chosen last on this
 * device, or the first listed; an id naming no listed market is "not found".
 */
export function TradePage() {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const data = useOptions();
  const symbols = data.overview?.symbols ?? null;
  const choice = symbols === null ? null : chooseSymbol(tradeIdOf(pathname), symbols, localStorage.getItem(LAST_SYMBOL_KEY));
  const shown = choice !== null && choice !== 'notFound' ? choice : null;

  // The market the user opened is the one /trade shows next time.
  useEffect(() => {
    if (shown !== null) localStorage.setItem(LAST_SYMBOL_KEY, shown);
  }, [shown]);

  if (choice === 'notFound') return <NotFoundPage />;
  return (
    <div className="page options-page">
      <div className="options-page-head">
        <h1>{t('web.tab.trade')}</h1>
        <TradeLinks />
      </div>
      {shown !== null ? (
        <OptionsTrade key={shown} symbol={shown} data={data} />
      ) : data.overviewFailed ? (
        <LoadFailedNotice onRetry={data.reloadOverview} />
      ) : symbols !== null ? (
        <p className="muted" data-testid="options-no-markets">
          {t('web.options.noMarkets')}
        </p>
      ) : (
        <p className="muted">{t('web.common.loading')}</p>
      )}
    </div>
  );
}
