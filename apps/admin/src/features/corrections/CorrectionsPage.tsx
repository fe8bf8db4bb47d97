import { correctionStatuses, decideCorrectionContract, listCorrectionsContract, type StaffCorrection } from '@keel/contracts';
import { useState } from 'react';
import { useStaff } from '../../app/staff.ts';
import { Dialog } from '../../shared/Dialog.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { bodyOf, emptyAsUndefined, FieldErrorText, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { useMoneyAction } from '../../shared/money-action.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { Signed } from '../../shared/Signed.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';
import { CorrectionForm } from './CorrectionForm.tsx';
import { decisionRefusalKey, decisionsOpenTo } from './correction-problems.ts';

type CorrectionStatus = StaffCorrection['status'];
type Deciding = { correction: StaffCorrection; approve: boolean } | null;

const PAGE_SIZE = 20;
const LIST_PATH = '/corrections';
const decisionSchema = bodyOf(decideCorrectionContract);

/** What a correction changes: the user (public name and UID) and their account, or the house account. */
function TargetText({ correction }: { correction: StaffCorrection }) {
  const { t } = useI18n();
  if (correction.target === 'house' && correction.houseAccount) {
    return (
      <>
        {t(`admin.corrections.house.${correction.houseAccount}`)}
        {correction.houseAccount === 'merchant_float' && (
          <div data-testid="correction-merchant">{t('admin.corrections.merchant', { name: correction.merchantName ?? '—', id: correction.merchantId ?? '—' })}</div>
        )}
      </>
    );
  }
  return (
    <>
      {correction.userName} (#{correction.userId}) · {correction.account && t(`admin.corrections.account.${correction.account}`)}
    </>
  );
}

/** The same as text, for the decision dialog. */
function targetText(correction: StaffCorrection, t: ReturnType<typeof useI18n>['t']): string {
  if (correction.target === 'house' && correction.houseAccount) {
    const house = t(`admin.corrections.house.${correction.houseAccount}`);
    if (correction.houseAccount !== 'merchant_float') return house;
    return `${house} · ${t('admin.corrections.merchant', { name: correction.merchantName ?? '—', id: correction.merchantId ?? '—' })}`;
  }
  return `${correction.userName} (#${correction.userId}) · ${correction.account ? t(`admin.corrections.account.${correction.account}`) : ''}`;
}

/**
 * Staff corrections (issue 22, ADR 0039; roles admin and finance): the only way a person at Keel
 * changes a balance. The queue by state (pending oldest first, the others newest first), a page at
 * a time, both in the URL (a link may also name one user's: `?userId=`). A member proposes a
 * signed amount for a user's account or a house account with the reason the user reads; a
 * different member approves (an admin above the published amount, or when the asset had no price)
 * or rejects it, with an optional note. Only an approval posts it: one journal entry, shown to the
 * user with the reason, and a message.
 */
export function CorrectionsPage() {
  const { t } = useI18n();
  const { filter, searchFor, setFilter, list, table } = useListQuery(listCorrectionsContract, PAGE_SIZE);
  const status = filter.status as CorrectionStatus;
  const [proposing, setProposing] = useState(false);
  // A notice belongs to the tab it was given in.
  const [notice, setNotice] = useState<{ status: CorrectionStatus; text: string; testId: string } | null>(null);
  const [deciding, setDeciding] = useState<Deciding>(null);
  const adminAbove = list.data?.adminCheckerAboveUsdt;

  return (
    <section data-testid="corrections-page">
      <h2>{t('admin.corrections.title')}</h2>
      <p className="muted">{t('admin.corrections.intro')}</p>
      {adminAbove && (
        <p className="muted" data-testid="correction-rule">
          {t('admin.corrections.rule', { limit: adminAbove })}
        </p>
      )}
      <div className="toolbar">
        <button
          type="button"
          onClick={() => {
            setNotice(null);
            setProposing(true);
          }}
        >
          {t('admin.corrections.propose')}
        </button>
        <button type="button" className="secondary" onClick={() => void list.refetch()}>
          {t('admin.corrections.refresh')}
        </button>
      </div>
      {proposing && (
        <CorrectionForm
          adminAbove={adminAbove}
          onClose={() => setProposing(false)}
          onProposed={(correction) => {
            setProposing(false);
            setNotice({ status: 'pending', text: t('admin.corrections.proposed', { id: correction.id }), testId: 'corrections-proposed' });
            // The new proposal waits in the pending queue: that is where it is shown.
            if (status !== 'pending') setFilter({ status: 'pending' });
          }}
        />
      )}
      <StatusTabs
        label={t('admin.corrections.statusLabel')}
        statuses={correctionStatuses}
        status={status}
        labelOf={(each) => t(`admin.corrections.status.${each}`)}
        linkTo={(each) => ({ pathname: LIST_PATH, search: searchFor({ status: each }) })}
      />
      <ErrorAlert error={list.error} />
      {notice?.status === status && (
        <p className="notice" role="status" data-testid={notice.testId}>
          {notice.text}
        </p>
      )}
      <PagedTable<StaffCorrection>
        {...table}
        total="admin.corrections.total"
        empty={{ text: 'admin.corrections.empty', testId: 'corrections-empty' }}
        columns={[
          'admin.corrections.col.id',
          'admin.corrections.col.target',
          'admin.corrections.col.asset',
          'admin.corrections.col.amount',
          'admin.corrections.col.value',
          'admin.corrections.col.reason',
          'admin.corrections.col.reference',
          'admin.corrections.col.proposed',
          status === 'pending' ? 'admin.corrections.col.decision' : 'admin.corrections.col.decided',
        ]}
        row={(correction) => (
          <CorrectionRow
            correction={correction}
            onDecide={(approve) => {
              setNotice(null);
              setDeciding({ correction, approve });
            }}
          />
        )}
      />
      {deciding && (
        <DecisionDialog
          {...deciding}
          onClose={() => setDeciding(null)}
          onDecided={(decided) => {
            setDeciding(null);
            setNotice({ status, text: t('admin.corrections.decided', { id: decided.id, status: t(`admin.corrections.status.${decided.status}`) }), testId: 'corrections-decided' });
          }}
        />
      )}
    </section>
  );
}

/** One correction: what it changes and why, who proposed it and when, and the decision (taken or to take). */
function CorrectionRow({ correction, onDecide }: { correction: StaffCorrection; onDecide: (approve: boolean) => void }) {
  const { t } = useI18n();
  const me = useStaff();
  const open = decisionsOpenTo(correction, me);
  return (
    <tr data-testid={`correction-row-${correction.id}`}>
      <td>#{correction.id}</td>
      <td data-testid="correction-target">
        <TargetText correction={correction} />
      </td>
      <td data-testid="correction-asset">{correction.asset}</td>
      <td data-testid="correction-amount">
        <Signed amount={correction.amount} /> {correction.asset}
      </td>
      <td>
        <span data-testid="correction-value">{correction.valueUsdt === null ? t('admin.corrections.noPrice') : `${correction.valueUsdt} USDT`}</span>
        {correction.status === 'pending' && correction.adminCheckerRequired && (
          <div>
            <span className="status status-pending" data-testid="correction-admin-checker">
              {t('admin.corrections.adminChecker')}
            </span>
          </div>
        )}
      </td>
      <td data-testid="correction-reason">
        {correction.reason}
      </td>
      <td data-testid="correction-reference">{correction.reference ?? '—'}</td>
      <td data-testid="correction-proposed">{t('admin.corrections.by', { staff: correction.proposedBy, time: formatEpochMs(correction.proposedAtMs) })}</td>
      <td>
        <span className={`status status-${correction.status}`} data-testid="correction-status">
          {t(`admin.corrections.status.${correction.status}`)}
        </span>
        {correction.decidedBy && correction.decidedAtMs !== null && (
          <div className="muted" data-testid="correction-decided-by">
            {t('admin.corrections.decidedBy', { staff: correction.decidedBy, time: formatEpochMs(correction.decidedAtMs) })}
          </div>
        )}
        {correction.decisionNote && (
          <div className="muted" data-testid="correction-note">
            {t('admin.corrections.note', { note: correction.decisionNote })}
          </div>
        )}
        {correction.entryId && (
          <div className="muted" data-testid="correction-entry">
            {t('admin.corrections.entry', { id: correction.entryId })}
          </div>
        )}
        {correction.status === 'pending' && (
          <div className="decision">
            {open.why && (
              <p className="notice" data-testid="correction-why-not">
                {t(open.why)}
              </p>
            )}
            <div className="row start">
              <button type="button" onClick={() => onDecide(true)} disabled={!open.approve} title={open.approve ? undefined : (open.why && t(open.why)) || undefined}>
                {t('admin.corrections.approve')}
              </button>
              <button type="button" className="secondary" onClick={() => onDecide(false)} disabled={!open.reject} title={open.reject ? undefined : (open.why && t(open.why)) || undefined}>
                {t('admin.corrections.reject')}
              </button>
            </div>
          </div>
        )}
      </td>
    </tr>
  );
}

/**
 * Approve or reject a correction, with an optional note kept with the decision: the dialog names
 * the correction (target, signed amount, reason) and says what the decision does. It is sent with
 * one Idempotency-Key per click (`useMoneyAction`), reused only to repeat a request whose outcome
 * is unknown. The server's refusals stay in the dialog, with what they mean here.
 */
function DecisionDialog({
  correction,
  approve,
  onClose,
  onDecided,
}: {
  correction: StaffCorrection;
  approve: boolean;
  onClose: () => void;
  onDecided: (correction: StaffCorrection) => void;
}) {
  const { t } = useI18n();
  const decision = useMoneyAction(decideCorrectionContract, { invalidates: [listCorrectionsContract] });
  const form = useContractForm(decisionSchema, { defaultValues: { approve, note: undefined } });
  const refusal = decisionRefusalKey(decision.error);
  const title = t(approve ? 'admin.corrections.decide.approveTitle' : 'admin.corrections.decide.rejectTitle', { id: correction.id });
  const effect = !approve
    ? t('admin.corrections.decide.rejectEffect')
    : correction.target === 'house'
      ? t('admin.corrections.decide.approveHouseEffect')
      : t('admin.corrections.decide.approveUserEffect');

  const submit = form.handleSubmit(async (body) => {
    const decided = await decision.run({ params: { correctionId: correction.id }, body: { ...body, approve } });
    if (decided) onDecided(decided);
  });

  return (
    <Dialog
      label={title}
      title={title}
      onSubmit={submit}
      onCancel={onClose}
      submitLabel={t(approve ? 'admin.corrections.approve' : 'admin.corrections.reject')}
      busy={decision.busy}
      error={decision.error}
    >
      <p data-testid="correction-decision-subject">
        <strong>{targetText(correction, t)}</strong>: <Signed amount={correction.amount} /> {correction.asset}
      </p>
      <p className="muted">{t('admin.corrections.decide.reason', { reason: correction.reason })}</p>
      <p data-testid="correction-decision-effect">{effect}</p>
      <label>
        {t('admin.corrections.decide.note')}
        <textarea maxLength={500} aria-describedby="correction-note-error" {...form.register('note', { setValueAs: emptyAsUndefined })} />
      </label>
      <FieldErrorText error={form.formState.errors.note} id="correction-note-error" />
      {refusal && (
        <p className="notice" data-testid="correction-refusal">
          {t(refusal)}
        </p>
      )}
    </Dialog>
  );
}
