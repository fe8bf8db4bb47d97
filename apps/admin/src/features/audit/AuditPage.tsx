import { listAuditContract } from '@keel/contracts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';

const PAGE_SIZE = 50;

/** The append-only audit log, newest first; the page is the URL's (/admin/audit?page=3). */
export function AuditPage() {
  const { t } = useI18n();
  const { list, table } = useListQuery(listAuditContract, PAGE_SIZE);

  return (
    <section>
      <h2>{t('admin.audit.title')}</h2>
      <p className="muted">{t('admin.audit.appendOnly')}</p>
      <ErrorAlert error={list.error} />
      <PagedTable
        {...table}
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
