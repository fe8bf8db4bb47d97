import {
  getTwoPersonRuleContract,
  listStaffDepositsContract,
  type WalletChannelId,
  walletChannelIds,
} from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type ComponentType, type ReactNode, useState } from 'react';
import { Link, Outlet, useOutletContext } from 'react-router';
import type { z } from 'zod';
import type { Staff } from '../../app/staff.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { emptyAsUndefined, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { type ListContract, queryOf, useListQuery } from '../../shared/list-query.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { ReasonForm } from '../../shared/ReasonForm.tsx';
import { useContractQuery } from '../../shared/queries.ts';
import { type RecordRead, RecordRoute, useRecordLinks, useSeedRecord } from '../../shared/record-route.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';

/** A status every finance queue shows (deposits use the first three). */
export type FinanceStatus = 'pending' | 'approved' | 'completed' | 'rejected' | 'failed' | 'cancelled';

/** Which queue: it names the queue's texts, test ids and URL (`deposits.title`, `deposit-row-…`, /admin/deposits). */
export type QueueKind = 'deposit' | 'withdrawal';

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
 * the top of the finance queues and the appeals. Only an explanation: the queue works without it,
 * and a refused decision says why anyway, so a failed read shows nothing.
 */
export function TwoPersonRuleNote() {
  const { t } = useI18n();
  const rule = useContractQuery(getTwoPersonRuleContract, {}).data;
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
export type Confirmation = { title: string; text: string; confirmLabel: string; danger?: boolean; testId?: string };

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
      testId={asking.testId}
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

/** The queue filters as a form: the list contract's own rules for the channel and the user field. */
const queueFilterSchema = queryOf(listStaffDepositsContract).pick({ channel: true, user: true });
type QueueFilter = z.output<typeof queueFilterSchema>;

/**
 * Channel and user filters, showing the URL's. The channel applies as soon as it is chosen; the
 * user field (an id, or a fragment of the name, e-mail or phone) on submit. Applying the filter
 * already shown reads the queue again.
 */
function QueueFilters({ filter, onApply, onRefresh }: { filter: QueueFilter; onApply: (filter: QueueFilter) => void; onRefresh: () => void }) {
  const { t } = useI18n();
  const form = useContractForm(queueFilterSchema, { values: { channel: filter.channel, user: filter.user } });
  const apply = form.handleSubmit(onApply);

  return (
    <search>
      <form className="toolbar" onSubmit={apply} noValidate>
        <select
          aria-label={t('admin.finance.filter.channel')}
          {...form.register('channel', { setValueAs: emptyAsUndefined, onChange: () => void apply() })}
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
          maxLength={64}
          aria-describedby="queue-user-error"
          {...form.register('user', { setValueAs: emptyAsUndefined })}
        />
        <button type="submit">{t('admin.finance.filter.apply')}</button>
        <button type="button" className="secondary" onClick={onRefresh}>
          {t('admin.finance.refresh')}
        </button>
      </form>
      <FieldErrorText error={form.formState.errors.user} id="queue-user-error" />
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
export function isOwnFirstApproval(record: Approvable, staff: Staff): boolean {
  return record.firstApproval !== null && record.firstApproval.staff === staff.username;
}

/** The maker-checker state of a pending record that needs two approvals, and which rule asks for them. */
export function MakerChecker({ record, staff }: { record: Approvable; staff: Staff }) {
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

/** The contract's decision body, for the rejection form (approve needs no field). */
type DecisionSchema = z.ZodType<{ decision: 'approve' | 'reject'; reason?: string }, { decision: 'approve' | 'reject'; reason?: string }>;

/**
 * Approve, or reject with the reason the user will read (the verification queue's pattern). Each
 * asks first in a dialog that names the record, its amount and asset, and the user (`named`, the
 * values of the `admin.confirm.{kind}.*` texts), and runs `decide` only on confirm. `approveNote`
 * says what an approval moves: always exactly what the user asked for. The rejection's reason is
 * checked by the contract's `schema` before asking.
 */
export function DecisionPanel({
  kind,
  named,
  rejectLabel,
  schema,
  busy,
  approveBlocked,
  approveNote,
  rejectNote,
  decide,
}: {
  kind: QueueKind;
  named: Record<string, string>;
  /** The confirm button of a rejection: what happens to the money ("Return 101 USDT"). */
  rejectLabel: 'admin.confirm.rejectAmount' | 'admin.confirm.returnAmount';
  schema: DecisionSchema;
  busy: boolean;
  /** The viewer gave the first approval: the second must come from someone else. */
  approveBlocked: boolean;
  approveNote: ReactNode;
  rejectNote?: ReactNode;
  decide: (body: { decision: 'approve' } | { decision: 'reject'; reason: string }) => Promise<void>;
}) {
  const { t } = useI18n();
  const [rejecting, setRejecting] = useState(false);
  const { ask, dialog } = useConfirmation(busy);
  const form = useContractForm(schema, {
    defaultValues: { decision: 'reject', reason: '' },
    messages: { reason: { custom: fieldMessage('admin.finance.reasonTooShort') } },
  });
  const confirmApprove: Confirmation = {
    title: t(`admin.confirm.${kind}.approve.title`, named),
    text: t(`admin.confirm.${kind}.approve.text`, named),
    confirmLabel: t('admin.confirm.approveAmount', named),
  };
  const reject = form.handleSubmit(({ reason = '' }) =>
    ask(
      {
        title: t(`admin.confirm.${kind}.reject.title`, named),
        text: t(`admin.confirm.${kind}.reject.text`, { ...named, reason }),
        confirmLabel: t(rejectLabel, named),
        danger: true,
      },
      () => decide({ decision: 'reject', reason }),
    ),
  );

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
              onClick={() => ask(confirmApprove, () => decide({ decision: 'approve' }))}
              disabled={busy || approveBlocked}
              title={approveBlocked ? t('admin.finance.ownFirstApproval') : undefined}
            >
              {t('admin.finance.approve')}
            </button>
          </div>
        </>
      ) : (
        <ReasonForm
          label={t('admin.finance.reasonLabel')}
          field={form.register('reason')}
          error={form.formState.errors.reason}
          notes={
            <>
              <p className="muted">{t('admin.finance.reasonShown')}</p>
              {rejectNote && <p className="muted">{rejectNote}</p>}
            </>
          }
          submitLabel={t('admin.finance.confirmReject')}
          busy={busy}
          onSubmit={reject}
          onCancel={() => setRejecting(false)}
        />
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

/** What a queue gives the record opened under it (`useOutletContext`): where a change is reported, how to close it. */
export type FinanceOutlet<T> = { changed: (updated: T) => void; close: () => void };

/**
 * The route of one record of a finance queue (/admin/withdrawals/42): the record read by `read`,
 * drawn by `Detail` above the queue, which hears of every change (`changed`) and closes it.
 */
export function financeRecordRoute<T extends { id: string }>(
  read: RecordRead,
  Detail: ComponentType<{ item: T; onClose: () => void; onChanged: (updated: T) => void }>,
) {
  return function FinanceRecordRoute() {
    const { changed, close } = useOutletContext<FinanceOutlet<T>>();
    return (
      <RecordRoute read={read} onClose={close}>
        {(item) => <Detail key={(item as T).id} item={item as T} onClose={close} onChanged={changed} />}
      </RecordRoute>
    );
  };
}

/**
 * A finance queue page (/admin/deposits, /admin/withdrawals): records by state, filtered by
 * channel and user, a page at a time — all of it in the URL's query string — with one record
 * opened at its own URL (/admin/withdrawals/42, keeping the filter) above the table. The table
 * starts with id, user, channel and amount and ends with the state and the open link; the
 * queue's own `columns` and `cells` stand between.
 */
export function FinanceQueue<S extends FinanceStatus, T extends QueueRecord & { status: S }>({
  kind,
  statuses,
  list: listContract,
  record,
  columns,
  cells,
}: {
  kind: QueueKind;
  /** The first is the state the queue opens on: the records waiting for staff. */
  statuses: readonly [S, ...S[]];
  /** The queue's list contract: its query takes the state, channel and user; its answer the records. */
  list: ListContract;
  /** The read that opens one record (seeded with the row, so it draws at once). */
  record: RecordRead;
  columns: (status: S) => MessageKey[];
  cells: (item: T, status: S) => ReactNode;
}) {
  const { t } = useI18n();
  const listPath = `/${kind}s`;
  const { filter, searchFor, applyFilter, list, table } = useListQuery(listContract, PAGE_SIZE);
  const status = filter.status as S;
  const { recordTo, close } = useRecordLinks(listPath);
  const seed = useSeedRecord(record);
  // A notice belongs to the state it was given in: another tab does not show it.
  const [notice, setNotice] = useState<{ status: S; text: string } | null>(null);

  function changed(updated: T) {
    // Still pending after an approval: the first of two was recorded; the record stays open.
    if (updated.status === status) {
      setNotice({ status, text: t('admin.finance.notice.firstApproval', { id: updated.id }) });
    } else {
      setNotice({ status, text: t('admin.finance.notice.decided', { id: updated.id, status: t(`admin.finance.status.${updated.status}`) }) });
      close();
    }
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
        linkTo={(each) => ({ pathname: listPath, search: searchFor({ status: each } as never) })}
      />
      <QueueFilters
        filter={filter as QueueFilter}
        onApply={(next) => applyFilter(next as never)}
        onRefresh={() => void list.refetch()}
      />
      <ErrorAlert error={list.error} />
      {notice?.status === status && (
        <p className="notice" role="status" data-testid="finance-notice">
          {notice.text}
        </p>
      )}
      <Outlet context={{ changed, close } satisfies FinanceOutlet<T>} />
      <PagedTable
        {...table}
        result={list.data as { items: T[]; total: number } | undefined}
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
              <Link
                to={recordTo(item.id)}
                onClick={() => {
                  seed(item.id, item);
                  setNotice(null);
                }}
              >
                {t('admin.finance.open')}
              </Link>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
