import { type ContractData, listRecordsContract } from '@keel/contracts';
import { useSearchParams } from 'react-router';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, LoadFailedNotice, SelectField } from '../../shared/ui/components.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
import { type AccountKind, accountKindKeys, accountKinds } from '../assets/accounts.ts';
import { isKnownReason, knownReasons, reasonKeys, referenceKeys } from './reasons.ts';

type LedgerRecord = ContractData<typeof listRecordsContract>['items'][number];

const isKind = (value: string | null): value is AccountKind => value !== null && (accountKinds as readonly string[]).includes(value);

function RecordItem({ record }: { record: LedgerRecord }) {
  const { t } = useI18n();
  const reasonLabel = isKnownReason(record.reason) ? t(reasonKeys[record.reason]) : record.reason;
  const referenceLabel = record.referenceType ? referenceKeys[record.referenceType] : undefined;
  return (
    <li className="record" data-testid="record" data-reason={record.reason} data-entry={record.entryId}>
      <div className="record-head">
        <span className="record-reason">{reasonLabel}</span>
        {/* Year/month/day hour:minute:second (spec section 9) reads left to right in every language. */}
        <time className="muted num" dir="ltr" dateTime={record.createdAt}>
          {formatDateTime(record.createdAt)}
        </time>
      </div>
      <ul className="record-postings">
        {record.postings.map((posting, index) => (
          // Postings have no id of their own; their order within an entry is fixed.
          // biome-ignore lint/suspicious/noArrayIndexKey: the order of an entry's postings never changes.
          <li key={index} className="record-posting" data-testid="record-posting" data-account={posting.account} data-asset={posting.asset}>
            <span>
              {t(accountKindKeys[posting.account])}
              {posting.bucket === 'frozen' && <span className="badge">{t('web.records.frozen')}</span>}
            </span>
            <Amount value={posting.amount} unit={posting.asset} signed testId="record-amount" />
          </li>
        ))}
      </ul>
      {/* A staff correction carries the reason its maker wrote (ADR 0039): the user reads why their balance changed. */}
      {record.reason === 'staff.correction' && record.memo && (
        <div className="record-correction" data-testid="record-correction">
          <p className="record-correction-line">{t('web.records.correctionReason', { reason: record.memo })}</p>
          <p className="record-correction-line muted">{t('web.records.correctionNote')}</p>
        </div>
      )}
      {/* A fee with a VIP discount (ADR 0046): the entry's memo names the fee before it, the discount and the fee charged. */}
      {record.memo?.includes(' · VIP ') && (
        <p className="record-vip muted" data-testid="record-vip">
          {record.memo.slice(record.memo.indexOf(' · VIP ') + 3)}
        </p>
      )}
      <p className="record-ref muted">
        <span>{t('web.records.entry', { id: record.entryId })}</span>
        {referenceLabel && record.referenceId && <span>{t(referenceLabel, { id: record.referenceId })}</span>}
      </p>
    </li>
  );
}

/**
 * /assets/records: every journal entry that touched the user's accounts (decisions page: "the user
 * sees every entry"), newest first, each with its signed postings; filtered by account and type,
 * paged. The filters live in the address, so a filtered list can be reloaded or shared.
 */
export function RecordsList() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const account = isKind(params.get('account')) ? (params.get('account') as AccountKind) : '';
  const reasonParam = params.get('type') ?? '';
  const reason = /^[a-z][a-z0-9_.]{1,63}$/.test(reasonParam) ? reasonParam : '';
  // Records are added by the app's own money moves (which invalidate this query) and by changes
  // made elsewhere (pushed events); polled only while the push connection is down.
  const list = usePagedQuery(
    listRecordsContract,
    { account: account || undefined, reason: reason || undefined },
    { refetchInterval: useFallbackPolling() },
  );
  const { data, loading } = list;

  function setFilter(name: 'account' | 'type', value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    // A new filter starts from its first page.
    next.delete('page');
    setParams(next, { replace: true });
  }

  const typeOptions = [
    { value: '', label: t('web.records.allTypes') },
    ...knownReasons.map((code) => ({ value: code, label: t(reasonKeys[code]) })),
    // A type from a shared address that this version has no label for still shows as chosen.
    ...(reason && !isKnownReason(reason) ? [{ value: reason, label: reason }] : []),
  ];

  return (
    <>
      <Card className="records-filters">
        <SelectField
          label={t('web.records.account')}
          value={account}
          options={[{ value: '', label: t('web.records.allAccounts') }, ...accountKinds.map((kind) => ({ value: kind, label: t(accountKindKeys[kind]) }))]}
          testId="records-account"
          onChange={(value) => setFilter('account', value)}
        />
        <SelectField label={t('web.records.type')} value={reason} options={typeOptions} testId="records-type" onChange={(value) => setFilter('type', value)} />
      </Card>
      {list.failed && <LoadFailedNotice onRetry={list.reload} />}
      <Card>
        {data === null ? (
          <p className="muted">{t('web.common.loading')}</p>
        ) : data.items.length === 0 ? (
          <p className="muted" data-testid="records-empty">
            {t('web.records.empty')}
          </p>
        ) : (
          <ul className="records" aria-busy={loading || undefined} data-testid="records">
            {data.items.map((record) => (
              <RecordItem key={record.entryId} record={record} />
            ))}
          </ul>
        )}
        {data && <Pager page={list.page} total={data.total} loading={loading} onPage={list.setPage} testIdPrefix="records" />}
        {data && <p className="field-hint" data-testid="records-total">{t('web.records.total', { count: data.total })}</p>}
      </Card>
    </>
  );
}
