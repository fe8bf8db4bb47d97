import { useCallback, useEffect, useState } from 'react';
import { useI18n } from './i18n.tsx';

/**
 * One page of a staff list. Loads whenever `fetchPage` changes (the caller memoizes it on its page
 * and filters) and on `load()`; a failure keeps the last page shown under the error.
 */
export function usePagedList<T extends { total: number }>(fetchPage: () => Promise<T>, pageSize: number) {
  const { describeError } = useI18n();
  const [result, setResult] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setResult(await fetchPage());
      setError(null);
    } catch (caught) {
      setError(describeError(caught));
    }
  }, [fetchPage, describeError]);

  useEffect(() => {
    void load();
  }, [load]);

  const pages = result ? Math.max(1, Math.ceil(result.total / pageSize)) : 1;
  return { result, error, load, pages };
}
