import { Link } from 'react-router';
import { SwapForm } from '../../../features/swap/SwapForm.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';

/** /assets/flashExchange: the swap in the coin account. */
export function FlashExchangePage() {
  const { t } = useI18n();
  return (
    <div className="page">
      <PageHeader title={t('web.swap.flashTitle')} backTo="/assets" />
      <p className="muted">{t('web.swap.intro')}</p>
      <SwapForm account="coin" />
      <p className="field-hint">
        <Link to="/assets/conversion" data-testid="to-conversion">
          {t('web.swap.otherAccount')}
        </Link>
      </p>
    </div>
  );
}

/** /assets/conversion: the same swap, in an account the user picks. */
export function ConversionPage() {
  const { t } = useI18n();
  return (
    <div className="page">
      <PageHeader title={t('web.swap.conversionTitle')} backTo="/assets" />
      <p className="muted">{t('web.swap.intro')}</p>
      <SwapForm />
    </div>
  );
}
