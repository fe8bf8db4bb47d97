import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { getLeverageOverviewContract } from '@keel/contracts';
import { chooseLeverageSymbol, LAST_LEVERAGE_SYMBOL_KEY, type LeverageProduct } from '../../../features/leverage/leverage-logic.ts';
import { LeverageTrade } from '../../../features/leverage/LeverageTrade.tsx';
import { useLeverage } from '../../../features/leverage/useLeverage.ts';
import { useContractQuery } from '../../../shared/api/queries.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { LoadFailedNotice } from '../../../shared/ui/components.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

/**
 * /trade/leveraged and /trade/futures (issue 16): a leverage trade screen. `?symbol=` names the
 * market (`BTC/USDT` or `BTCUSDT`, any case); without it, the market chosen last on this device,
 * or the first listed; a symbol naming no listed market is "not found".
 */
function LeveragePage({ product }: { product: LeverageProduct }) {
  const { t } = useI18n();
  const [params] = useSearchParams();
  // The overview names the listed markets; useLeverage reads the same query (one request).
  const overview = useContractQuery(getLeverageOverviewContract);
  const symbols = overview.data?.symbols ?? null;
  const choice = symbols === null ? null : chooseLeverageSymbol(params.get('symbol'), symbols, localStorage.getItem(LAST_LEVERAGE_SYMBOL_KEY));
  const shown = choice !== null && choice !== 'notFound' ? choice : null;
  const data = useLeverage(product, shown);

  // The market the user opened is the one the screens show next time.
  useEffect(() => {
    if (shown !== null) localStorage.setItem(LAST_LEVERAGE_SYMBOL_KEY, shown);
  }, [shown]);

  if (choice === 'notFound') return <NotFoundPage />;
  const maxLeverage = data.overview?.products.find((each) => each.product === product)?.maxLeverage ?? 0;
  return (
    <div className="page options-page leverage-page" data-testid={`leverage-page-${product}`} data-symbol={shown ?? ''}>
      <div className="options-page-head">
        <h1>{t(product === 'futures' ? 'web.leverage.title.futures' : 'web.leverage.title.leveraged')}</h1>
        {data.overview && (
          <p className="muted leverage-page-note" data-testid="leverage-page-note">
            {product === 'futures'
              ? t('web.leverage.note.futures', { max: maxLeverage, hours: data.overview.rules.fundingIntervalHours })
              : t('web.leverage.note.leveraged', { max: maxLeverage })}
          </p>
        )}
      </div>
      {shown !== null ? (
        <LeverageTrade key={`${product}:${shown}`} symbol={shown} data={data} />
      ) : data.overviewFailed ? (
        <LoadFailedNotice onRetry={data.reloadOverview} />
      ) : data.overview !== null ? (
        <p className="muted" data-testid="leverage-no-markets">
          {t('web.leverage.noMarkets')}
        </p>
      ) : (
        <p className="muted">{t('web.common.loading')}</p>
      )}
    </div>
  );
}

export { prefetchLeverageScreen } from '../../../features/leverage/leverage-queries.ts';

export function LeveragedPage() {
  return <LeveragePage product="leveraged" />;
}

export function FuturesPage() {
  return <LeveragePage product="futures" />;
}
