import { LIST_PAGE_SIZE, pageCount } from '../api/paging.ts';
import { useI18n } from '../i18n/I18nProvider.tsx';
import { Button } from './components.tsx';

/**
 * Previous / "page N of M" / next, under a list longer than a page (or when the address names a
 * later page). `testIdPrefix` names its parts: `-prev`, `-page`, `-next`.
 */
export function Pager({
  page,
  total,
  loading,
  onPage,
  testIdPrefix,
}: {
  page: number;
  total: number;
  /** The next page is on its way: both buttons wait. */
  loading: boolean;
  onPage: (page: number) => void;
  testIdPrefix: string;
}) {
  const { t } = useI18n();
  const pages = pageCount(total);
  if (total <= LIST_PAGE_SIZE && page <= 1) return null;
  return (
    <nav className="pager" aria-label={t('web.records.pages')}>
      <Button variant="secondary" className="btn-small" disabled={page <= 1 || loading} onClick={() => onPage(page - 1)} data-testid={`${testIdPrefix}-prev`}>
        {t('web.records.previous')}
      </Button>
      <span data-testid={`${testIdPrefix}-page`}>{t('web.records.pageOf', { page, pages })}</span>
      <Button variant="secondary" className="btn-small" disabled={page >= pages || loading} onClick={() => onPage(page + 1)} data-testid={`${testIdPrefix}-next`}>
        {t('web.records.next')}
      </Button>
    </nav>
  );
}
