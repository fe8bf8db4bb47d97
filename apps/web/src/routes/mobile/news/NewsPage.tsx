import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { MarketIcon } from '../../../shared/ui/icons.tsx';

/** /news: the market tab; markets and news arrive in a later release. */
export function NewsPage() {
  const { t } = useI18n();
  return (
    <div className="page tab-placeholder">
      <h1>{t('web.tab.market')}</h1>
      <div className="tab-placeholder-body">
        <span className="tab-placeholder-icon">
          <MarketIcon />
        </span>
        <p>{t('web.news.description')}</p>
      </div>
    </div>
  );
}
