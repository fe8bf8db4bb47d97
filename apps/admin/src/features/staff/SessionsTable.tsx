import type { StaffSessionView } from '@keel/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';

/**
 * Open sessions of one staff member (own or, for an admin, anyone's), as `sessions` read them:
 * when each started and was last used, from which address and browser; each can be revoked after
 * a confirmation (`revoke`, a mutation that reads the list again). Revoking the session in use
 * logs this browser out (`onRevokedCurrent`).
 */
export function SessionsTable({
  sessions,
  revoke,
  onRevokedCurrent,
}: {
  sessions: UseQueryResult<{ items: StaffSessionView[] }, Error>;
  revoke: { run: (sessionId: string) => Promise<unknown>; busy: boolean; error: unknown };
  onRevokedCurrent?: () => void;
}) {
  const { t } = useI18n();
  const [confirming, setConfirming] = useState<StaffSessionView | null>(null);
  const items = sessions.data?.items;

  async function confirmRevoke(session: StaffSessionView) {
    try {
      await revoke.run(session.id);
      if (session.current) onRevokedCurrent?.();
    } catch {
      // The refusal is shown under the table (`revoke.error`).
    } finally {
      setConfirming(null);
    }
  }

  return (
    <>
      <ErrorAlert error={sessions.error ?? revoke.error} />
      {items && items.length === 0 && (
        <p className="muted" data-testid="sessions-empty">
          {t('admin.sessions.empty')}
        </p>
      )}
      {items && items.length > 0 && (
        <table data-testid="sessions-table">
          <thead>
            <tr>
              <th>{t('admin.sessions.started')}</th>
              <th>{t('admin.sessions.lastUsed')}</th>
              <th>{t('admin.sessions.expires')}</th>
              <th>{t('admin.sessions.address')}</th>
              <th>{t('admin.sessions.browser')}</th>
              <th>{t('admin.staff.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((session) => (
              <tr key={session.id} data-testid={`session-row-${session.id}`}>
                <td>
                  {formatDateTime(session.createdAt)}
                  {session.current && <div className="status status-active">{t('admin.sessions.current')}</div>}
                </td>
                <td>{session.lastSeenAt ? formatDateTime(session.lastSeenAt) : ''}</td>
                <td>{formatDateTime(session.expiresAt)}</td>
                <td>{session.clientIp ?? ''}</td>
                <td className="muted">{session.userAgent ?? ''}</td>
                <td>
                  <button type="button" className="secondary" onClick={() => setConfirming(session)}>
                    {t('admin.sessions.revoke')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('admin.sessions.revoke')}
          text={t(confirming.current ? 'admin.sessions.revokeCurrentConfirm' : 'admin.sessions.revokeConfirm')}
          confirmLabel={t('admin.sessions.revoke')}
          danger
          busy={revoke.busy}
          error={null}
          onConfirm={() => void confirmRevoke(confirming)}
          onCancel={() => setConfirming(null)}
        />
      )}
    </>
  );
}
