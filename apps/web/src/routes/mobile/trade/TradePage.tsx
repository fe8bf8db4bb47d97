import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { TradeIcon } from '../../../shared/ui/icons.tsx';

/** /trade and /trade_{id}: trading arrives in a later release; the tab says what it will hold. */
export function TradePage() {
  const { t } = useI18n();
  return (
    <div className="page tab-placeholder">
      <h1>{t('web.tab.trade')}</h1>
      <div className="tab-placeholder-body">
        <span className="tab-placeholder-icon">
          <TradeIcon />
        </span>
        <p>{t('web.trade.description')}</p>
      </div>
    </div>
  );
}
