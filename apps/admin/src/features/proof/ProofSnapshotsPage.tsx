import {
  getLiabilitySnapshotContract,
  type LiabilitySnapshot,
  listLiabilitySnapshotsContract,
  requestLiabilitySnapshotContract,
} from '@keel/contracts';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime, formatEpochMs } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useContractMutation, useContractQuery } from '../../shared/queries.ts';

const PAGE_SIZE = 20;
/** How often the page asks whether the snapshot it asked for is published (the job looks every 15 s). */
const WAITING_POLL_MS = 2_000;

/**
 * The snapshot an admin asked for, until the server's job has taken it: asked again every few
 * seconds (the public read answers "not found" until it is published), then the list is read again.
 */
function useWaitingSnapshot(asked: LiabilitySnapshot | null, onPublished: () => void) {
  // The id whose publication was seen: no more asking for it (a later request starts again).
  const [seen, setSeen] = useState<string | null>(null);
  const query = useContractQuery(
    getLiabilitySnapshotContract,
    { params: { snapshotId: asked?.id ?? '0' } },
    { enabled: asked !== null && seen !== asked.id, staleTime: 0, refetchInterval: WAITING_POLL_MS },
  );
  const snapshot = query.data as LiabilitySnapshot | undefined;
  const published = asked !== null && snapshot?.id === asked.id && snapshot.status === 'published';
  useEffect(() => {
    if (!published || asked === null || seen === asked.id) return;
    setSeen(asked.id);
    onPublished();
  }, [published, asked, seen, onPublished]);
  return published;
}

/**
 * Proof of liabilities (issue 22, ADR 0040; role admin, the request contract's `staffRoles`): the
 * published snapshots — the same list as the public page /proof — and "ask for a snapshot now",
 * besides the daily one. The job on the server takes a request within about 15 seconds; asking
 * again while one waits answers the waiting one. Nothing here changes a balance or a snapshot.
 */
export function ProofSnapshotsPage() {
  const { t } = useI18n();
  const { list, table } = useListQuery(listLiabilitySnapshotsContract, PAGE_SIZE);
  const [asked, setAsked] = useState<LiabilitySnapshot | null>(null);
  const request = useContractMutation(requestLiabilitySnapshotContract, { onSuccess: (snapshot) => setAsked(snapshot) });
  const refetchList = list.refetch;
  const published = useWaitingSnapshot(asked, () => void refetchList());

  return (
    <section data-testid="proof-page">
      <h2>{t('admin.proof.title')}</h2>
      <p className="muted">{t('admin.proof.intro')}</p>
      <div className="toolbar">
        <button type="button" disabled={request.isPending} onClick={() => request.mutate({})} data-testid="proof-ask">
          {t('admin.proof.ask')}
        </button>
        <button type="button" className="secondary" onClick={() => void list.refetch()}>
          {t('admin.proof.refresh')}
        </button>
        <a href="/proof" target="_blank" rel="noopener" data-testid="proof-public-link">
          {t('admin.proof.publicPage')}
        </a>
      </div>
      <ErrorAlert error={request.error} />
      {asked && (
        <p className="notice" role="status" data-testid="proof-waiting" data-snapshot-id={asked.id} data-status={published ? 'published' : 'pending'}>
          {published
            ? t('admin.proof.published', { id: asked.id })
            : t('admin.proof.waiting', { id: asked.id, time: formatEpochMs(asked.requestedAtMs) })}
        </p>
      )}
      <h3>{t('admin.proof.list')}</h3>
      <ErrorAlert error={list.error} />
      <PagedTable<LiabilitySnapshot>
        {...table}
        empty={{ text: 'admin.proof.empty', testId: 'proof-empty' }}
        columns={['admin.proof.col.id', 'admin.proof.col.takenAt', 'admin.proof.col.kind', 'admin.proof.col.accounts', 'admin.proof.col.totals', 'admin.proof.col.root']}
        row={(snapshot) => (
          <tr data-testid={`proof-snapshot-${snapshot.id}`}>
            <td>#{snapshot.id}</td>
            <td data-testid="proof-taken-at">{snapshot.published ? formatDateTime(snapshot.published.takenAt) : ''}</td>
            <td>{t(snapshot.kind === 'requested' ? 'admin.proof.kind.requested' : 'admin.proof.kind.scheduled')}</td>
            <td data-testid="proof-leaves">{snapshot.published?.leafCount}</td>
            <td>
              {snapshot.totals.map((total) => (
                <div key={total.asset} data-testid={`proof-total-${total.asset}`} data-value={total.amount}>
                  <bdi dir="ltr">
                    {total.amount} {total.asset}
                  </bdi>
                </div>
              ))}
            </td>
            <td>
              <code className="secret" dir="ltr" data-testid="proof-root">
                {snapshot.published?.rootHash}
              </code>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
