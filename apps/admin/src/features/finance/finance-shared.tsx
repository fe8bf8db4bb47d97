import { ApiError, errorCatalogue, type WalletChannelId, walletChannelIds } from '@keel/contracts';
import { type FormEvent, type ReactNode, useCallback, useRef, useState } from 'react';
import { formatDateTime } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';

/** The logged-in staff member, as App.tsx knows them (the finance views compare names with it). */
export type FinanceStaff = { id: string; username: string };

/** A status every finance queue shows (deposits use the first three). */
export type FinanceStatus = 'pending' | 'approved' | 'completed' | 'rejected' | 'failed' | 'cancelled';

export type QueueFilter = { channel: WalletChannelId | undefined; user: string | undefined };

/** The shape both queue records share for the maker-checker display. */
type Approvable = { status: string; approvalsRequired: number; firstApproval: { staff: string; at: string } | null };

/** A long hash or address, shortened in a table; the full text is in the tooltip. */
export function Short({ text, head = 8, tail = 6 }: { text: string; head?: number; tail?: number }) {
  const short = text.length > head + tail + 1 ? `${text.slice(0, head)}…${text.slice(-tail)}` : text;
  return <code title={text}>{short}</code>;
}

/** Status tabs of a queue (the verification queue's pattern). */
export function StatusTabs<S extends FinanceStatus>({ statuses, status, onChange }: { statuses: readonly S[]; status: S; onChange: (status: S) => void }) {
  const { t } = useI18n();
  return (
    <div className="toolbar" role="tablist" aria-label={t('admin.finance.status')}>
      {statuses.map((each) => (
        <button
          key={each}
          type="button"
          role="tab"
          aria-selected={each === status}
          className={each === status ? 'tab active' : 'tab'}
          onClick={() => onChange(each)}
        >
          {t(`admin.finance.status.${each}`)}
        </button>
      ))}
    </div>
  );
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
    </>
  );
}

/** True when the viewer gave the first of two approvals (the server names staff by username). */
export function isOwnFirstApproval(record: Approvable, staff: FinanceStaff): boolean {
  return record.firstApproval !== null && record.firstApproval.staff === staff.username;
}

/** The maker-checker state of a pending record above the two-person threshold. */
export function MakerChecker({ record, staff }: { record: Approvable; staff: FinanceStaff }) {
  const { t } = useI18n();
  if (record.status !== 'pending' || record.approvalsRequired < 2) return null;
  if (!record.firstApproval) return <p className="notice">{t('admin.finance.twoPerson')}</p>;
  return (
    <>
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
 * Approve, or reject with the reason the user will read (the verification queue's pattern).
 * `approveNote` says what an approval moves: always exactly what the user asked for.
 */
export function DecisionPanel({
  busy,
  approveBlocked,
  approveNote,
  rejectNote,
  onApprove,
  onReject,
  onInvalid,
}: {
  busy: boolean;
  /** The viewer gave the first approval: the second must come from someone else. */
  approveBlocked: boolean;
  approveNote: ReactNode;
  rejectNote?: ReactNode;
  onApprove: () => void;
  onReject: (reason: string) => void;
  onInvalid: (message: string) => void;
}) {
  const { t } = useI18n();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');

  function reject(event: FormEvent) {
    event.preventDefault();
    if (reason.trim().length < 3) return onInvalid(t('admin.finance.reasonTooShort'));
    onReject(reason.trim());
  }

  return (
    <div className="decision">
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
              onClick={onApprove}
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
