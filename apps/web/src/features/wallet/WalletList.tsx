import { ApiError } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type ReactNode, useState } from 'react';
import { isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
// The rows' styles; screens of other features (messages, P2P) draw their lists with this frame.
import './wallet.css';

/**
 * A list of the user's own records in a card: "loading" until the first answer, then the empty text
 * or one row per item, and `footer` under them. A failed load offers a retry above the card, and
 * `error` (a refused action on a row) stands between the two. `testId` names the list, and with
 * `-empty` its empty text.
 */
export function WalletList<T>({
  source,
  items,
  error,
  emptyText,
  testId,
  busy,
  footer,
  children,
}: {
  source: { failed: boolean; reload: () => void };
  /** Null while the list has not loaded. */
  items: readonly T[] | null;
  error?: string | null;
  emptyText: string;
  testId: string;
  /** A newer page is loading: the rows shown are about to change. */
  busy?: boolean;
  footer?: ReactNode;
  children: (item: T) => ReactNode;
}) {
  const { t } = useI18n();
  return (
    <>
      {source.failed && <LoadFailedNotice onRetry={source.reload} />}
      {error && (
        <Notice tone="error" testId="form-error">
          {error}
        </Notice>
      )}
      <Card>
        {items === null ? (
          <p className="muted">{t('web.common.loading')}</p>
        ) : items.length === 0 ? (
          <p className="muted" data-testid={`${testId}-empty`}>
            {emptyText}
          </p>
        ) : (
          <ul className="wallet-rows" aria-busy={busy || undefined} data-testid={testId}>
            {items.map((item) => children(item))}
          </ul>
        )}
        {footer}
      </Card>
    </>
  );
}

/** A page of records from `usePagedQuery`, with the pager and the total under the rows. */
export function PagedWalletList<T>({
  list,
  emptyText,
  testId,
  children,
}: {
  list: {
    page: number;
    setPage: (page: number) => void;
    data: { items: readonly T[]; total: number } | null;
    failed: boolean;
    loading: boolean;
    reload: () => void;
  };
  emptyText: string;
  testId: string;
  children: (item: T) => ReactNode;
}) {
  const { t } = useI18n();
  return (
    <WalletList
      source={list}
      items={list.data?.items ?? null}
      emptyText={emptyText}
      testId={testId}
      busy={list.loading}
      footer={
        list.data && (
          <>
            <Pager page={list.page} total={list.data.total} loading={list.loading} onPage={list.setPage} testIdPrefix={testId} />
            <p className="field-hint" data-testid={`${testId}-total`}>
              {t('web.records.total', { count: list.data.total })}
            </p>
          </>
        )
      }
    >
      {children}
    </WalletList>
  );
}

/**
 * Removes one item of a list (after its inline confirmation) and says so in a toast; a refusal is
 * kept in `error` for the list to show. `call` is the removal mutation (it invalidates the list);
 * after a refusal the list is loaded again too, so that it shows what the server holds.
 */
export function useRemoveItem({ call, removedKey, reload }: { call: (id: string) => Promise<unknown>; removedKey: MessageKey; reload: () => void }) {
  const { t, tServer } = useI18n();
  const toast = useToast();
  const [removing, setRemoving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function remove(id: string) {
    setRemoving(id);
    setError(null);
    try {
      await call(id);
      toast(t(removedKey));
    } catch (failure) {
      if (isSessionError(failure)) return;
      setError(failure instanceof ApiError ? tServer(failure.message) : t('web.common.loadFailed'));
      reload();
    } finally {
      setRemoving(null);
    }
  }

  return { removing, error, remove };
}
