import { useCallback, useEffect, useState } from 'react';
import { useI18n } from './i18n.tsx';

/**
 * One page of a staff list and the page number. Loads whenever `fetchPage` changes (the caller
 * memoizes it on its filters, and goes back to page 1 with `setPage(1)` when they change), when the
 * page changes, and on `load()`; a failure keeps the last page shown under the error.
 */
export function usePagedList<T extends { total: number }>(fetchPage: (page: number) => Promise<T>, pageSize: number) {
  const { describeError } = useI18n();
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setResult(await fetchPage(page));
      setError(null);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [fetchPage, page, describeError]);

  useEffect(() => {
    void load();
  }, [load]);

  const pages = result ? Math.max(1, Math.ceil(result.total / pageSize)) : 1;
  return { result, error, load, page, pages, setPage };
}
