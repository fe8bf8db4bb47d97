import { listAuditContract } from '@keel/contracts';
import { useCallback, useState } from 'react';
import { api } from '../../shared/api.ts';
import { formatDateTime } from '../../shared/format.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { Pager } from '../../shared/Pager.tsx';
import { usePagedList } from '../../shared/usePagedList.ts';

const PAGE_SIZE = 50;

export function AuditPage() {
  const { t } = useI18n();
  const [page, setPage] = useState(1);

  const fetchPage = useCallback(() => api(listAuditContract, { query: { page, pageSize: PAGE_SIZE } }), [page]);
  const { result, error, pages } = usePagedList(fetchPage, PAGE_SIZE);

  return (
    <section>
      <h2>{t('admin.audit.title')}</h2>
      <p className="muted">{t('admin.audit.appendOnly')}</p>
      <ErrorAlert message={error} />
      {result && (
        <>
          <table>
            <thead>
              <tr>
                <th>{t('admin.audit.time')}</th>
                <th>{t('admin.audit.staff')}</th>
                <th>{t('admin.audit.action')}</th>
                <th>{t('admin.audit.target')}</th>
                <th>{t('admin.audit.detail')}</th>
              </tr>
            </thead>
            <tbody>
              {result.items.map((entry) => (
                <tr key={entry.id}>
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
              ))}
            </tbody>
          </table>
          <Pager page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </section>
  );
}
