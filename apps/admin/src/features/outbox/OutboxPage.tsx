import { listNotificationsContract } from '@keel/contracts';
import { type FormEvent, useCallback, useState } from 'react';
import { api } from '../../shared/api.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { usePagedList } from '../../shared/usePagedList.ts';

const PAGE_SIZE = 20;

/**
 * The notification outbox (roles admin and support): what Keel sent or would send, newest first.
 * With no mail server or SMS provider configured, codes stay here for staff to pass on; a body is
 * blanked once a provider delivered it. Every view is written to the audit log.
 */
export function OutboxPage() {
  const { t } = useI18n();
  const [target, setTarget] = useState('');
  const [applied, setApplied] = useState('');

  const fetchPage = useCallback(
    (page: number) => api(listNotificationsContract, { query: { page, pageSize: PAGE_SIZE, target: applied || undefined } }),
    [applied],
  );
  const list = usePagedList(fetchPage, PAGE_SIZE);

  function search(event: FormEvent) {
    event.preventDefault();
    list.setPage(1);
    setApplied(target.trim());
  }

  return (
    <section>
      <h2>{t('admin.outbox.title')}</h2>
      <p className="muted">{t('admin.outbox.intro')}</p>
      <search>
        <form className="toolbar" onSubmit={search}>
          <input
            aria-label={t('admin.outbox.search')}
            placeholder={t('admin.outbox.search')}
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            maxLength={254}
          />
          <button type="submit">{t('admin.users.searchButton')}</button>
          <button type="button" className="secondary" onClick={() => void list.load()}>
            {t('admin.outbox.refresh')}
          </button>
        </form>
      </search>
      <ErrorAlert message={list.error} />
      <PagedTable
        list={list}
        total="admin.outbox.total"
        columns={['admin.outbox.time', 'admin.outbox.channel', 'admin.outbox.target', 'admin.outbox.message', 'admin.outbox.status']}
        row={(item) => (
          <tr data-testid={`outbox-row-${item.id}`}>
            <td>{formatDateTime(item.createdAt)}</td>
            <td>{t(`admin.outbox.channel.${item.channel}`)}</td>
            <td>{item.target}</td>
            <td>
              <strong>{item.subject}</strong>
              <div className="muted">
                <code>{item.topic}</code>
              </div>
              <p className="body">{item.body === '' ? <span className="muted">{t('admin.outbox.bodyBlanked')}</span> : item.body}</p>
            </td>
            <td>
              <span className={`status status-${item.status}`}>{t(`admin.outbox.status.${item.status}`)}</span>
              {item.provider && <div className="muted">{item.provider}</div>}
              {item.deliveredAt && <div className="muted">{formatDateTime(item.deliveredAt)}</div>}
              {item.attempts > 0 && <div className="muted">{t('admin.outbox.attempts', { attempts: item.attempts })}</div>}
              {item.lastError && <div className="error">{item.lastError}</div>}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
