import { MarketList } from '../../../features/market/MarketList.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';

/** /news: the market tab: the live market list with the watchlist. News pages arrive later. */
export function NewsPage() {
  const { t } = useI18n();
  return (
    <div className="page">
      <h1 className="page-title">{t('web.tab.market')}</h1>
      <MarketList />
    </div>
  );
}
