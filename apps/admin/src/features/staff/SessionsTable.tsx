import type { StaffSessionView } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';

/**
 * Open sessions of one staff member (own or, for an admin, anyone's): when each started and was
 * last used, from which address and browser; each can be revoked after a confirmation. Revoking
 * the session in use logs this browser out (`onRevokedCurrent`).
 */
export function SessionsTable({
  load,
  revoke,
  onRevokedCurrent,
}: {
  load: () => Promise<{ items: StaffSessionView[] }>;
  revoke: (sessionId: string) => Promise<void>;
  onRevokedCurrent?: () => void;
}) {
  const { t, describeError } = useI18n();
  const [items, setItems] = useState<StaffSessionView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<StaffSessionView | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setItems((await load()).items);
      setError(null);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [load, describeError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  async function confirmRevoke() {
    if (!confirming) return;
    setBusy(true);
    try {
      await revoke(confirming.id);
      const wasCurrent = confirming.current;
      setConfirming(null);
      if (wasCurrent) onRevokedCurrent?.();
      else await reload();
    } catch (caught) {
      setError(describeError(caught));
      setConfirming(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <ErrorAlert message={error} />
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
          busy={busy}
          error={null}
          onConfirm={() => void confirmRevoke()}
          onCancel={() => setConfirming(null)}
        />
      )}
    </>
  );
}
