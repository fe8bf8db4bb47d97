import { listNotificationsContract } from '@keel/contracts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { SearchForm } from '../../shared/SearchForm.tsx';

const PAGE_SIZE = 20;

/**
 * The notification outbox (roles admin and support): what Keel sent or would send, newest first.
 * With no mail server or SMS provider configured, codes stay here for staff to pass on; a body is
 * blanked once a provider delivered it. Every view is written to the audit log. The target filter
 * and the page are the URL's (/admin/outbox?target=…).
 */
export function OutboxPage() {
  const { t } = useI18n();
  const listQuery = useListQuery(listNotificationsContract, PAGE_SIZE);
  const { list, table } = listQuery;

  return (
    <section>
      <h2>{t('admin.outbox.title')}</h2>
      <p className="muted">{t('admin.outbox.intro')}</p>
      <SearchForm list={listQuery} field="target" label={t('admin.outbox.search')} maxLength={254}>
        <button type="button" className="secondary" onClick={() => void list.refetch()}>
          {t('admin.outbox.refresh')}
        </button>
      </SearchForm>
      <ErrorAlert error={list.error} />
      <PagedTable
        {...table}
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
