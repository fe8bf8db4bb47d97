import { endOwnStaffSessionContract, listOwnStaffSessionsContract } from '@keel/contracts';
import { useCallback, useState } from 'react';
import { api } from '../../shared/api.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { PasswordForm } from '../auth/PasswordForm.tsx';
import { SessionsTable } from './SessionsTable.tsx';

/** "My sessions" (every staff member): the own open sessions, each revocable, and a password change. */
export function MySessionsPage({ onLoggedOut }: { onLoggedOut: () => void }) {
  const { t } = useI18n();
  const [changed, setChanged] = useState(false);
  const [generation, setGeneration] = useState(0);
  // A new function after a password change (which ends the other sessions) reloads the table.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is the reload trigger.
  const load = useCallback(() => api(listOwnStaffSessionsContract), [generation]);
  const revoke = useCallback(async (sessionId: string) => {
    await api(endOwnStaffSessionContract, { params: { sessionId } });
  }, []);

  return (
    <section data-testid="my-sessions-page">
      <h2>{t('admin.sessions.mineTitle')}</h2>
      <p className="muted">{t('admin.sessions.mineIntro')}</p>
      <SessionsTable load={load} revoke={revoke} onRevokedCurrent={onLoggedOut} />
      <h3>{t('admin.password.changeTitle')}</h3>
      {changed && <p className="notice">{t('admin.password.changed')}</p>}
      <PasswordForm
        currentLabel="admin.password.current"
        testId="change-password"
        onDone={() => {
          setChanged(true);
          setGeneration((value) => value + 1);
        }}
      />
    </section>
  );
}
