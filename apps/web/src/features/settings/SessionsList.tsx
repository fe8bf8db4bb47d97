import { type ContractData, endSessionContract, listSessionsContract } from '@keel/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';

type SessionItem = ContractData<typeof listSessionsContract>['items'][number];

/** A short, readable name for a browser's user-agent string (nothing is sent anywhere). */
export function deviceName(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iOS/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  const parts = [browser, system].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : userAgent.slice(0, 60);
}

/** /safeSetting/sessions: the devices logged in to this account, each of which can be logged out. */
export function SessionsList() {
  const { t, tServer } = useI18n();
  const toast = useToast();
  const [items, setItems] = useState<SessionItem[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [ending, setEnding] = useState<string | null>(null);

  const load = useCallback(async () => {
    setFailed(false);
    try {
      setItems((await api(listSessionsContract)).items);
    } catch (error) {
      if (!isSessionError(error)) setFailed(true);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function end(id: string) {
    setEnding(id);
    try {
      await api(endSessionContract, { params: { sessionId: id } });
      toast(t('web.settings.sessionEnded'));
    } catch (error) {
      if (isSessionError(error)) return;
      toast(error instanceof Error ? tServer(error.message) : t('web.common.loadFailed'));
    } finally {
      setEnding(null);
      void load();
    }
  }

  if (failed) return <LoadFailedNotice onRetry={() => void load()} />;
  if (!items) return <p className="muted">{t('web.common.loading')}</p>;
  return (
    <div className="card">
      <p className="muted">{t('web.settings.sessionsIntro')}</p>
      <ul className="list" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="sessions">
        {items.map((item) => (
          <li key={item.id} className="session-item" data-testid={item.current ? 'session-current' : 'session-other'}>
            <div className="session-head">
              <strong>{deviceName(item.userAgent) ?? t('web.settings.unknownDevice')}</strong>
              {item.current ? (
                <span className="state-badge state-verified">{t('web.settings.thisDevice')}</span>
              ) : (
                <Button variant="danger" className="btn-small" busy={ending === item.id} onClick={() => void end(item.id)} data-testid="session-end">
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
