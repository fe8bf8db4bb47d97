import type { Contract, ContractData, ContractInput } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type To, useLocation, useNavigate, useParams } from 'react-router';
import { ErrorAlert } from './ErrorAlert.tsx';
import { useI18n } from './i18n.tsx';
import { useContractQuery } from './queries.ts';

/**
 * The links of a queue whose records open at their own URL (/admin/withdrawals/42): a record's
 * URL keeps the queue's filter in its query string, so the table under the record stays the
 * same, and closing the record goes back to the queue with that filter.
 */
export function useRecordLinks(listPath: string) {
  const location = useLocation();
  const navigate = useNavigate();
  return {
    recordTo: (id: string): To => ({ pathname: `${listPath}/${encodeURIComponent(id)}`, search: location.search }),
    close: () => navigate({ pathname: listPath, search: location.search }),
  };
}

/**
 * Puts a record the list already holds in the cache of its own read, so opening it draws at once
 * (and is read again from the server behind it).
 */
export function useSeedRecord<C extends Contract>(read: RecordRead<C>) {
  const client = useQueryClient();
  return (id: string, record: ContractData<C>) => client.setQueryData(contractKey(read.contract, recordInput(read, id)), record);
}

/** Which read opens a queue's record, and the route parameter that holds its id (`depositId` in /deposits/:depositId). */
export type RecordRead<C extends Contract = Contract> = { contract: C; param: string };

/** A record read's input for one id: `{ params: { depositId: '42' } }`. */
export const recordInput = <C extends Contract>(read: RecordRead<C>, id: string) => ({ params: { [read.param]: id } }) as ContractInput<C>;

/**
 * A record opened by its URL: the id from the route, read again from the server whenever it is
 * opened (`staleTime` 0), drawn by `children` — or, until then, loading, or the refusal (not
 * found, not allowed, a malformed id) with a way back to the queue.
 */
export function RecordRoute<C extends Contract>({
  read,
  onClose,
  children,
}: {
  read: RecordRead<C>;
  onClose: () => void;
  children: (record: ContractData<C>) => ReactNode;
}) {
  const { t } = useI18n();
  const id = useParams()[read.param] ?? '';
  const query = useContractQuery(read.contract, recordInput(read, id), { staleTime: 0 });
  if (query.data !== undefined) return children(query.data);
  return (
    <section className="card detail" data-testid="record-state" aria-busy={query.isPending}>
      {query.isPending ? <p className="muted">{t('admin.loading')}</p> : <ErrorAlert error={query.error} />}
      <div className="row">
        <button type="button" className="secondary" onClick={onClose}>
          {t('admin.finance.close')}
        </button>
      </div>
    </section>
  );
}
