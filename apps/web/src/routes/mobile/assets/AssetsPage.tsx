import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { AssetsIcon } from '../../../shared/ui/icons.tsx';

/** /assets: balances and their journal arrive in a later release. */
export function AssetsPage() {
  const { t } = useI18n();
  return (
    <div className="page tab-placeholder">
      <h1>{t('web.tab.assets')}</h1>
      <div className="tab-placeholder-body">
        <span className="tab-placeholder-icon">
          <AssetsIcon />
        </span>
        <p>{t('web.assets.description')}</p>
      </div>
    </div>
  );
}
