import { useI18n } from './i18n.tsx';

/** Previous / next paging under a table; `pages` is at least 1. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useI18n();
  return (
    <nav className="pager" aria-label={t('admin.pager.label')}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('admin.pager.previous')}
      </button>
      <span>{t('admin.pager.position', { page, pages })}</span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('admin.pager.next')}
      </button>
    </nav>
  );
}
