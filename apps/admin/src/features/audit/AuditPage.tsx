import { listAuditContract } from '@keel/contracts';
import { api } from '../../shared/api.ts';
import { formatDateTime } from '../../shared/format.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { usePagedList } from '../../shared/usePagedList.ts';

const PAGE_SIZE = 50;

const fetchAuditPage = (page: number) => api(listAuditContract, { query: { page, pageSize: PAGE_SIZE } });

export function AuditPage() {
  const { t } = useI18n();
  const list = usePagedList(fetchAuditPage, PAGE_SIZE);

  return (
    <section>
      <h2>{t('admin.audit.title')}</h2>
      <p className="muted">{t('admin.audit.appendOnly')}</p>
      <ErrorAlert message={list.error} />
      <PagedTable
        list={list}
        columns={['admin.audit.time', 'admin.audit.staff', 'admin.audit.action', 'admin.audit.target', 'admin.audit.detail']}
        row={(entry) => (
          <tr>
            <td>{formatDateTime(entry.createdAt)}</td>
            <td>{entry.staffUsername ?? t('admin.audit.system')}</td>
            <td>
              <code>{entry.action}</code>
            </td>
            <td>{entry.targetType ? `${entry.targetType} ${entry.targetId ?? ''}` : ''}</td>
            <td>
              <code>{JSON.stringify(entry.detail)}</code>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
