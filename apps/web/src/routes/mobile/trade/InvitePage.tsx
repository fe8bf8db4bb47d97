import { InvitationScreen } from '../../../features/invitations/InvitationScreen.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';

/** /trade/sgrinvite (spec section 2; issue 20): inviting others, and the rewards their trading fees earn. */
export function InvitePage() {
  const { t } = useI18n();
  return (
    <div className="page">
      <PageHeader title={t('web.invite.title')} backTo="/my" />
      <InvitationScreen />
    </div>
  );
}
