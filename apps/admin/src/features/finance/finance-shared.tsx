import { ApiError, type ContractData, errorCatalogue, getTwoPersonRuleContract, type WalletChannelId, walletChannelIds } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../shared/api.ts';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';
import { usePagedList } from '../../shared/usePagedList.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';

/** The logged-in staff member, as App.tsx knows them (the finance views compare names with it). */
export type FinanceStaff = { id: string; username: string };

/** A status every finance queue shows (deposits use the first three). */
export type FinanceStatus = 'pending' | 'approved' | 'completed' | 'rejected' | 'failed' | 'cancelled';

export type QueueFilter = { channel: WalletChannelId | undefined; user: string | undefined };

/** Which queue: it names the queue's texts and test ids (`deposits.title`, `deposit-row-…`). */
export type QueueKind = 'deposit' | 'withdrawal';

/** What one page of a queue is asked for. */
export type QueueQuery<S extends FinanceStatus> = QueueFilter & { status: S; page: number; pageSize: number };

/** The fields of a record that every queue shows in its table and its detail. */
type QueueRecord = {
  id: string;
  status: FinanceStatus;
  userId: string;
  userName: string;
  channel: WalletChannelId;
  asset: string;
  network: string;
  address: string;
  amount: string;
};

/** What a queue gives the detail of the record it opens. */
export type RecordDetailProps<T> = { item: T; staff: FinanceStaff; onClose: () => void; onChanged: (updated: T) => void };

const PAGE_SIZE = 20;

/** Why a decision needs a second staff member, as the server states it (ADR 0022). */
export type TwoPersonReason = {
  rule: 'record' | 'unpriced' | 'staff_window' | 'user_window';
  limitUsdt: string;
  decidedAloneUsdt: string;
  valueUsdt: string;
  windowHours: number;
};

/** The shape both queue records share for the maker-checker display. */
type Approvable = {
  status: string;
  approvalsRequired: number;
  firstApproval: { staff: string; at: string } | null;
  twoPersonReason: TwoPersonReason | null;
};

/** Which rule asks for a second staff member, with its numbers. */
export function TwoPersonReasonText({ reason }: { reason: TwoPersonReason }) {
  const { t } = useI18n();
  return (
    <>
      {t(`admin.twoPerson.reason.${reason.rule}`, {
        limit: reason.limitUsdt,
        decided: reason.decidedAloneUsdt,
        value: reason.valueUsdt,
        hours: reason.windowHours,
      })}
    </>
  );
}

/**
 * The published two-person rule (the same numbers the server applies and users read), shown at
 * the top of the finance queues and the appeals.
 */
export function TwoPersonRuleNote() {
  const { t } = useI18n();
  const [rule, setRule] = useState<ContractData<typeof getTwoPersonRuleContract> | null>(null);
  useEffect(() => {
    let live = true;
    api(getTwoPersonRuleContract, {})
      .then((data) => live && setRule(data))
      // Only an explanation: the queue works without it, and a refused decision says why anyway.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!rule) return null;
  return (
    <p className="muted" data-testid="two-person-rule">
      {t('admin.twoPerson.rule', {
        record: rule.recordAboveUsdt,
        appeal: rule.appealAboveUsdt,
        staff: rule.staffAloneLimitUsdt,
        user: rule.userAloneLimitUsdt,
        hours: rule.windowHours,
      })}
    </p>
  );
}

/** What a confirmation dialog says before a money-moving action: the record, the amount, the user, the effect. */
export type Confirmation = { title: string; text: string; confirmLabel: string; danger?: boolean };

/**
 * A confirmation dialog for an action that is run only on confirm; it closes once the action has
 * settled (its error, if any, is shown by the detail under it).
 */
export function useConfirmation(busy: boolean) {
  const [asking, setAsking] = useState<(Confirmation & { run: () => Promise<void> }) | null>(null);
  const dialog = asking ? (
    <ConfirmDialog
      title={asking.title}
      text={asking.text}
      confirmLabel={asking.confirmLabel}
      danger={asking.danger}
      busy={busy}
      error={null}
      onCancel={() => setAsking(null)}
      onConfirm={() => {
        void asking.run().finally(() => setAsking(null));
      }}
    />
  ) : null;
  return { ask: (confirmation: Confirmation, run: () => Promise<void>) => setAsking({ ...confirmation, run }), dialog };
}

/** A long hash or address, shortened in a table; the full text is in the tooltip. */
export function Short({ text, head = 8, tail = 6 }: { text: string; head?: number; tail?: number }) {
  const short = text.length > head + tail + 1 ? `${text.slice(0, head)}…${text.slice(-tail)}` : text;
  return <code title={text}>{short}</code>;
}

/**
 * Channel and user filters. The channel applies as soon as it is chosen; the user field (an id,
 * or a fragment of the name, e-mail or phone) on submit.
 */
export function QueueFilters({ onApply, onRefresh }: { onApply: (filter: QueueFilter) => void; onRefresh: () => void }) {
  const { t } = useI18n();
  const [channel, setChannel] = useState<WalletChannelId | ''>('');
  const [user, setUser] = useState('');
  const apply = (next: WalletChannelId | '') => onApply({ channel: next || undefined, user: user.trim() || undefined });

  function submit(event: FormEvent) {
    event.preventDefault();
    apply(channel);
  }

  return (
    <search>
      <form className="toolbar" onSubmit={submit}>
        <select
          aria-label={t('admin.finance.filter.channel')}
          name="channel"
          value={channel}
          onChange={(event) => {
            const next = event.target.value as WalletChannelId | '';
            setChannel(next);
            apply(next);
          }}
        >
          <option value="">{t('admin.finance.filter.allChannels')}</option>
          {walletChannelIds.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
        <input
          aria-label={t('admin.finance.filter.user')}
          placeholder={t('admin.finance.filter.user')}
          name="user"
          value={user}
          onChange={(event) => setUser(event.target.value)}
          maxLength={64}
        />
        <button type="submit">{t('admin.finance.filter.apply')}</button>
        <button type="button" className="secondary" onClick={onRefresh}>
          {t('admin.finance.refresh')}
        </button>
      </form>
    </search>
  );
}

/** How many approvals a record has: all of them once approved, else the recorded first one. */
export function approvalsGiven(record: Approvable & { approvals?: number }): number {
  if (record.approvals !== undefined) return record.approvals;
  if (record.status === 'approved') return record.approvalsRequired;
  return record.firstApproval ? 1 : 0;
}

/** "k of n" for a table cell, with the first approver's name while a second one is awaited. */
export function ApprovalsCell({ record }: { record: Approvable & { approvals?: number } }) {
  const { t } = useI18n();
  return (
    <>
      {t('admin.finance.approvalsCount', { count: approvalsGiven(record), required: record.approvalsRequired })}
      {record.firstApproval && <div className="muted">{t('admin.finance.approvalsFirst', { staff: record.firstApproval.staff })}</div>}
      {record.status === 'pending' && record.approvalsRequired === 2 && (
        <div>
          <span className="status status-pending" data-testid="needs-second-approver" title={record.twoPersonReason ? undefined : t('admin.finance.twoPerson')}>
            {t(record.firstApproval ? 'admin.twoPerson.needsSecond' : 'admin.twoPerson.needsTwo')}
          </span>
        </div>
      )}
    </>
  );
}

/** True when the viewer gave the first of two approvals (the server names staff by username). */
export function isOwnFirstApproval(record: Approvable, staff: FinanceStaff): boolean {
  return record.firstApproval !== null && record.firstApproval.staff === staff.username;
}

/** The maker-checker state of a pending record that needs two approvals, and which rule asks for them. */
export function MakerChecker({ record, staff }: { record: Approvable; staff: FinanceStaff }) {
  const { t } = useI18n();
  if (record.status !== 'pending' || record.approvalsRequired < 2) return null;
  const why = (
    <p className="notice" data-testid="two-person-reason">
      {record.twoPersonReason ? <TwoPersonReasonText reason={record.twoPersonReason} /> : t('admin.finance.twoPerson')}
    </p>
  );
  if (!record.firstApproval) return why;
  return (
    <>
      {why}
      <p className="notice" data-testid="first-approval">
        {t('admin.finance.firstApproval', { staff: record.firstApproval.staff, time: formatDateTime(record.firstApproval.at) })}
      </p>
      {isOwnFirstApproval(record, staff) && (
        <p className="notice" data-testid="own-first-approval">
          {t('admin.finance.ownFirstApproval')}
        </p>
      )}
    </>
  );
}

/** An outcome we cannot know (network failure, server failure, or the first try still running). */
function outcomeUnknown(error: unknown): boolean {
  return error instanceof ApiError && (error.code >= 500 || error.message === errorCatalogue.REQUEST_IN_PROGRESS.msg);
}

/**
 * Runs one money-moving staff action (a decision, a broadcast record, a failure) with its
 * Idempotency-Key. Each click is a new action with a fresh key, so a refused decision followed by
 * a corrected one is a new request; a second click while one runs is ignored (the ref guards it
 * before React re-renders the disabled button). Only when the outcome is unknown (the network
 * dropped, the server failed, or the first request is still in flight) is the same key kept for a
 * retry of the very same request (`signature`: the action and its body), so the server answers
 * what the first one did instead of deciding twice.
 */
export function useStaffAction() {
  const { describeError } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const unsettled = useRef<{ signature: string; key: string } | null>(null);

  const run = useCallback(
    async <T,>(signature: string, call: (idempotencyKey: string) => Promise<T>): Promise<T | undefined> => {
      if (running.current) return undefined;
      running.current = true;
      setBusy(true);
      setError(null);
      const key = unsettled.current?.signature === signature ? unsettled.current.key : crypto.randomUUID();
      unsettled.current = null;
      try {
        return await call(key);
      } catch (caught) {
        if (outcomeUnknown(caught)) unsettled.current = { signature, key };
        setError(describeError(caught));
        return undefined;
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [describeError],
  );

  return { busy, error, setError, run };
}

/**
 * Approve, or reject with the reason the user will read (the verification queue's pattern). Each
 * asks first in a dialog that names the record, its amount and asset, and the user (`confirm`),
 * and runs only on confirm. `approveNote` says what an approval moves: always exactly what the
 * user asked for.
 */
export function DecisionPanel({
  busy,
  approveBlocked,
  approveNote,
  rejectNote,
  confirm,
  onApprove,
  onReject,
  onInvalid,
}: {
  busy: boolean;
  /** The viewer gave the first approval: the second must come from someone else. */
  approveBlocked: boolean;
  approveNote: ReactNode;
  rejectNote?: ReactNode;
  confirm: { approve: Confirmation; reject: (reason: string) => Confirmation };
  onApprove: () => Promise<void>;
  onReject: (reason: string) => Promise<void>;
  onInvalid: (message: string) => void;
}) {
  const { t } = useI18n();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const { ask, dialog } = useConfirmation(busy);

  function reject(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (text.length < 3) return onInvalid(t('admin.finance.reasonTooShort'));
    ask(confirm.reject(text), () => onReject(text));
  }

  return (
    <div className="decision">
      {dialog}
      {!rejecting ? (
        <>
          <p className="muted" data-testid="approve-note">
            {approveNote}
          </p>
          <div className="row">
            <button type="button" className="secondary" onClick={() => setRejecting(true)} disabled={busy}>
              {t('admin.finance.reject')}
            </button>
            <button
              type="button"
              onClick={() => ask(confirm.approve, onApprove)}
              disabled={busy || approveBlocked}
              title={approveBlocked ? t('admin.finance.ownFirstApproval') : undefined}
            >
              {t('admin.finance.approve')}
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={reject}>
          <label>
            {t('admin.finance.reasonLabel')}
            <textarea name="reason" value={reason} onChange={(event) => setReason(event.target.value)} minLength={3} maxLength={500} required />
          </label>
          <p className="muted">{t('admin.finance.reasonShown')}</p>
          {rejectNote && <p className="muted">{rejectNote}</p>}
          <div className="row">
            <button type="button" className="secondary" onClick={() => setRejecting(false)} disabled={busy}>
              {t('admin.common.cancel')}
            </button>
            <button type="submit" className="danger" disabled={busy}>
              {t('admin.finance.confirmReject')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** A field of a detail: a label and its value (skipped when there is no value). */
export function Field({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <div className="contents">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/**
 * The detail of a finance record: its heading with the user, the fields every record opens with
 * (state, user, channel, asset, network, address), then the queue's own `fields`, then `children`
 * (notes and actions) under the list.
 */
export function RecordDetail({
  kind,
  item,
  addressLabel,
  onClose,
  fields,
  children,
}: {
  kind: QueueKind;
  item: QueueRecord;
  addressLabel: string;
  onClose: () => void;
  fields: ReactNode;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const heading = t(`admin.finance.${kind}s.detail`, { id: item.id });
  return (
    <DetailCard label={heading} title={heading} record={item} closeLabel={t('admin.finance.close')} onClose={onClose} testId={`${kind}-detail`}>
      <dl className="fields">
        <Field label={t('admin.finance.status')} testId="field-status">
          {t(`admin.finance.status.${item.status}`)}
        </Field>
        <Field label={t('admin.finance.col.user')} testId="field-user">
          {item.userName} (#{item.userId})
        </Field>
        <Field label={t('admin.finance.col.channel')} testId="field-channel">
          {item.channel}
        </Field>
        <Field label={t('admin.finance.field.asset')}>{item.asset}</Field>
        <Field label={t('admin.finance.field.network')}>{item.network}</Field>
        <Field label={addressLabel} testId="field-address">
          <code>{item.address}</code>
        </Field>
        {fields}
      </dl>
      {children}
    </DetailCard>
  );
}

/**
 * A finance queue page: records by state, filtered by channel and user, a page at a time, with one
 * record opened in `Detail` above the table. The table starts with id, user, channel and amount and
 * ends with the state and the open button; the queue's own `columns` and `cells` stand between.
 * `fetchPage` must keep its identity across renders (a module-level function): a new one reloads.
 */
export function FinanceQueue<S extends FinanceStatus, T extends QueueRecord & { status: S }>({
  kind,
  statuses,
  staff,
  fetchPage,
  columns,
  cells,
  Detail,
}: {
  kind: QueueKind;
  /** The first is the state the queue opens on: the records waiting for staff. */
  statuses: readonly [S, ...S[]];
  staff: FinanceStaff;
  fetchPage: (query: QueueQuery<S>) => Promise<{ items: T[]; total: number }>;
  columns: (status: S) => MessageKey[];
  cells: (item: T, status: S) => ReactNode;
  Detail: (props: RecordDetailProps<T>) => ReactNode;
}) {
  const { t } = useI18n();
  const [status, setStatus] = useState<S>(statuses[0]);
  const [filter, setFilter] = useState<QueueFilter>({ channel: undefined, user: undefined });
  const [open, setOpen] = useState<T | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const fetchFiltered = useCallback(
    (page: number) => fetchPage({ status, page, pageSize: PAGE_SIZE, channel: filter.channel, user: filter.user }),
    [fetchPage, status, filter],
  );
  const list = usePagedList(fetchFiltered, PAGE_SIZE);

  function changed(updated: T) {
    // Still pending after an approval: the first of two was recorded; the detail stays open.
    if (updated.status === status) {
      setOpen(updated);
      setNotice(t('admin.finance.notice.firstApproval', { id: updated.id }));
    } else {
      setOpen(null);
      setNotice(t('admin.finance.notice.decided', { id: updated.id, status: t(`admin.finance.status.${updated.status}`) }));
    }
    void list.load();
  }

  return (
    <section>
      <h2>{t(`admin.finance.${kind}s.title`)}</h2>
      <p className="muted">{t(`admin.finance.${kind}s.intro`)}</p>
      <TwoPersonRuleNote />
      <StatusTabs
        label={t('admin.finance.status')}
        statuses={statuses}
        status={status}
        labelOf={(each) => t(`admin.finance.status.${each}`)}
        onChange={(each) => {
          setStatus(each);
          list.setPage(1);
          setOpen(null);
          setNotice(null);
        }}
      />
      <QueueFilters
        onApply={(next) => {
          setFilter(next);
          list.setPage(1);
        }}
        onRefresh={() => void list.load()}
      />
      <ErrorAlert message={list.error} />
      {notice && (
        <p className="notice" role="status" data-testid="finance-notice">
          {notice}
        </p>
      )}
      {open && <Detail key={open.id} item={open} staff={staff} onClose={() => setOpen(null)} onChanged={changed} />}
      <PagedTable
        list={list}
        total={`admin.finance.${kind}s.total`}
        empty={{ text: 'admin.finance.empty', testId: `${kind}s-empty` }}
        columns={[
          'admin.finance.col.id',
          'admin.finance.col.user',
          'admin.finance.col.channel',
          'admin.finance.col.amount',
          ...columns(status),
          'admin.finance.status',
          'admin.finance.col.actions',
        ]}
        rowGroupTestId={(item) => `${kind}-row-user-${item.userName}`}
        row={(item) => (
          <tr data-testid={`${kind}-row-${item.id}`}>
            <td>{item.id}</td>
            <td>
              {item.userName} (#{item.userId})
            </td>
            <td>{item.channel}</td>
            <td>
              {item.amount} {item.asset}
            </td>
            {cells(item, status)}
            <td>
              <span className={`status status-${item.status}`}>{t(`admin.finance.status.${item.status}`)}</span>
            </td>
            <td>
              <button
                type="button"
                onClick={() => {
                  setOpen(item);
                  setNotice(null);
                }}
              >
                {t('admin.finance.open')}
              </button>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
