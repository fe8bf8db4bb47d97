import { VipView } from '../../../features/vip/VipView.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';

/** /my/vip: the published VIP table, my level and my progress to the next, applying (issue 20, ADR 0046). */
export function VipPage() {
  const { t } = useI18n();
  return (
    <div className="page vip-page" data-testid="vip-page">
      <PageHeader title={t('web.vip.title')} backTo="/my" />
      <VipView />
    </div>
  );
}
