import { ApiError, endSessionContract, listSessionsContract } from '@keel/contracts';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { deviceName } from './settings-helpers.ts';

/** /safeSetting/sessions: the devices logged in to this account, each of which can be logged out. */
export function SessionsList() {
  const { t, tServer } = useI18n();
  const toast = useToast();
  const sessions = useContractQuery(listSessionsContract);
  const end = useContractMutation(endSessionContract, {
    invalidates: [listSessionsContract],
    onSuccess: () => toast(t('web.settings.sessionEnded')),
  });
  const ending = end.isPending ? end.variables?.params.sessionId : undefined;

  function endSession(sessionId: string) {
    end.mutate(
      { params: { sessionId } },
      {
        onError: (error) => {
          if (!isSessionError(error)) toast(error instanceof ApiError ? tServer(error.message) : t('web.common.loadFailed'));
          // A session that ended meanwhile (another device) is gone from the list too.
          void sessions.refetch();
        },
      },
    );
  }

  if (loadFailed(sessions)) return <LoadFailedNotice onRetry={() => void sessions.refetch()} />;
  if (!sessions.data) return <p className="muted">{t('web.common.loading')}</p>;
  return (
    <div className="card">
      <p className="muted">{t('web.settings.sessionsIntro')}</p>
      <ul className="list" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="sessions">
        {sessions.data.items.map((item) => (
          <li key={item.id} className="session-item" data-testid={item.current ? 'session-current' : 'session-other'}>
            <div className="session-head">
              <strong>{deviceName(item.userAgent) ?? t('web.settings.unknownDevice')}</strong>
              {item.current ? (
                <span className="state-badge state-verified">{t('web.settings.thisDevice')}</span>
              ) : (
                <Button variant="danger" className="btn-small" busy={ending === item.id} onClick={() => endSession(item.id)} data-testid="session-end">
                  {t('web.settings.endSession')}
                </Button>
              )}
            </div>
            <span className="muted">
              {t('web.settings.sessionSince', { time: formatDateTime(item.createdAt) })}
              {item.clientIp ? ` · ${item.clientIp}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
