import { endOwnStaffSessionContract, listOwnStaffSessionsContract } from '@keel/contracts';
import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { endStaffSession, useContractMutation, useContractQuery } from '../../shared/queries.ts';
import { PasswordForm } from '../auth/PasswordForm.tsx';
import { SessionsTable } from './SessionsTable.tsx';

/**
 * "My sessions" (every staff member, /admin/me/sessions): the own open sessions, each revocable,
 * and a password change (which ends the other sessions: the list is read again).
 */
export function MySessionsPage() {
  const { t } = useI18n();
  const [changed, setChanged] = useState(false);
  const sessions = useContractQuery(listOwnStaffSessionsContract, undefined, { staleTime: 0 });
  const end = useContractMutation(endOwnStaffSessionContract, { invalidates: [listOwnStaffSessionsContract] });

  return (
    <section data-testid="my-sessions-page">
      <h2>{t('admin.sessions.mineTitle')}</h2>
      <p className="muted">{t('admin.sessions.mineIntro')}</p>
      <SessionsTable
        sessions={sessions}
        revoke={{ run: (sessionId) => end.mutateAsync({ params: { sessionId } }), busy: end.isPending, error: end.error }}
        onRevokedCurrent={endStaffSession}
      />
      <h3>{t('admin.password.changeTitle')}</h3>
      {changed && <p className="notice">{t('admin.password.changed')}</p>}
      <PasswordForm currentLabel="admin.password.current" testId="change-password" onDone={() => setChanged(true)} />
    </section>
  );
}
