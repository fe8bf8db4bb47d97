import { listAuditContract } from '@keel/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../shared/api.ts';
import { formatDateTime } from '../../shared/format.ts';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { Pager } from '../../shared/Pager.tsx';

type AuditPageData = Awaited<ReturnType<typeof api<typeof listAuditContract>>>;
const PAGE_SIZE = 50;

export function AuditPage() {
  const { t, describeError } = useI18n();
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<AuditPageData | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api(listAuditContract, { query: { page, pageSize: PAGE_SIZE } })
      .then((data) => {
        setResult(data);
        setError(null);
      })
      .catch((caught) => setError(describeError(caught)));
  }, [page, describeError]);

  const pages = result ? Math.max(1, Math.ceil(result.total / PAGE_SIZE)) : 1;
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
