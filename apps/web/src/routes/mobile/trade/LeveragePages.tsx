import type { LeverageProduct } from '../../../features/leverage/leverage-logic.ts';
import { LeverageNoMarket, LeverageTrade } from '../../../features/leverage/LeverageTrade.tsx';
import { useLeverageScreen } from '../../../features/leverage/useLeverageScreen.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

/**
 * /trade/leveraged and /trade/futures (issue 16): a leverage trade screen. `?symbol=` names the
 * market (`BTC/USDT` or `BTCUSDT`, any case); without it, the market chosen last on this device,
 * or the first listed; a symbol naming no listed market is "not found".
 */
function LeveragePage({ product }: { product: LeverageProduct }) {
  const { t } = useI18n();
  const { choice, shown, data } = useLeverageScreen(product);

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
      ) : (
        <LeverageNoMarket data={data} />
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
