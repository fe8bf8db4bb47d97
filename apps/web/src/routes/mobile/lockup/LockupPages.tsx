import { useParams } from 'react-router';
import { EarnProducts } from '../../../features/earn/EarnProducts.tsx';
import { EarnPurchase } from '../../../features/earn/EarnPurchase.tsx';
import { EarnSubscriptions } from '../../../features/earn/EarnSubscriptions.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

/** /Lockup: lock-up mining products (issue 17). */
export function LockupPage() {
  const { t } = useI18n();
  return (
    <div className="page earn-page" data-testid="earn-page-lockup">
      <PageHeader title={t('web.earn.title.lockup')} backTo="/index" />
      <EarnProducts kind="lockup" />
    </div>
  );
}

/** /Lockup/Financial: financial products. */
export function FinancialPage() {
  const { t } = useI18n();
  return (
    <div className="page earn-page" data-testid="earn-page-financial">
      <PageHeader title={t('web.earn.title.financial')} backTo="/index" />
      <EarnProducts kind="financial" />
    </div>
  );
}

/** /Lockup/Purchase/{id}: one product's terms and its subscription; an id that is not a number is "not found". */
export function PurchasePage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  if (!/^\d{1,19}$/.test(id)) return <NotFoundPage />;
  return (
    <div className="page earn-page" data-testid="earn-page-purchase">
      <PageHeader title={t('web.earn.title.purchase')} backTo="/Lockup" />
      <EarnPurchase key={id} productId={id} />
    </div>
  );
}

/** /Lockup/subscribe: the user's subscriptions. */
export function SubscribePage() {
  const { t } = useI18n();
  return (
    <div className="page earn-page" data-testid="earn-page-subscribe">
      <PageHeader title={t('web.earn.mine.title')} backTo="/Lockup" />
      <EarnSubscriptions />
    </div>
  );
}
