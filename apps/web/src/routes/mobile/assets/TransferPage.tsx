import { useSearchParams } from 'react-router';
import { TransferForm } from '../../../features/assets/TransferForm.tsx';
import { UserTransferForm } from '../../../features/assets/UserTransferForm.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader, Segmented } from '../../../shared/ui/components.tsx';

type TransferMode = 'own' | 'user';

/**
 * /assets/transfer: between the user's own accounts (free), or to another user (issue 19; the
 * published fee, the withdrawal rules). The mode is kept in the address, so `?to=user` links
 * straight to the transfer to another user.
 */
export function TransferPage() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const mode: TransferMode = params.get('to') === 'user' ? 'user' : 'own';
  return (
    <div className="page">
      <PageHeader title={t('web.transfer.title')} backTo="/assets" />
      <Segmented<TransferMode>
        label={t('web.transfer.mode.label')}
        value={mode}
        options={[
          { value: 'own', label: t('web.transfer.mode.own'), testId: 'transfer-mode-own' },
          { value: 'user', label: t('web.transfer.mode.user'), testId: 'transfer-mode-user' },
        ]}
        onChange={(next) => setParams(next === 'user' ? { to: 'user' } : {}, { replace: true })}
      />
      {mode === 'own' ? (
        <>
          <p className="muted">{t('web.transfer.intro')}</p>
          <TransferForm />
        </>
      ) : (
        <>
          <p className="muted" data-testid="user-transfer-intro">
            {t('web.userTransfer.intro')}
          </p>
          <UserTransferForm />
        </>
      )}
    </div>
  );
}
