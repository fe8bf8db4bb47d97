import { listC2cAppealsContract, resolveC2cAppealContract } from '@keel/contracts';
import { useState } from 'react';
import { Link, Outlet, useOutletContext, useParams } from 'react-router';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { bodyOf, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { useMoneyAction } from '../../shared/money-action.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { useRecordLinks } from '../../shared/record-route.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';
import { Field, TwoPersonReasonText, TwoPersonRuleNote, useConfirmation } from '../finance/finance-shared.tsx';
import { appealIn, type C2cAppeal, resolutionEffectKey, resolveRefusalKey } from './c2c-console.ts';
import { BankDetailsList, OrderFields, ProofImage, StatusBadge } from './c2c-parts.tsx';

type AppealStatus = 'open' | 'resolved';
type Outcome = 'complete' | 'fail';

const PAGE_SIZE = 20;
const LIST_PATH = '/c2c/appeals';
const statuses: readonly [AppealStatus, AppealStatus] = ['open', 'resolved'];

/** What the queue gives the appeal opened under it: the list's appeals, where a resolution is reported, how to close it. */
type AppealsOutlet = { items: readonly C2cAppeal[] | undefined; loading: boolean; resolved: (updated: C2cAppeal) => void; close: () => void };

/**
 * A deposit's screenshot on demand: each view is written to the audit log, so it is fetched only
 * when support asks for it, and dropped when hidden.
 */
function ProofOnDemand({ appeal }: { appeal: C2cAppeal }) {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  if (appeal.kind !== 'deposit' || !appeal.proofUploadId) return null;
  return (
    <section aria-label={t('admin.c2c.proof.title')} data-testid="c2c-appeal-proof">
      <h4>{t('admin.c2c.proof.title')}</h4>
      <p className="muted">{t('admin.c2c.proof.audited')}</p>
      <button type="button" className="secondary" onClick={() => setShown(!shown)} aria-expanded={shown} data-testid="c2c-appeal-proof-toggle">
        {t(shown ? 'admin.c2c.proof.hide' : 'admin.c2c.proof.show')}
      </button>
      {shown && <ProofImage request={appeal} testId="c2c-appeal-proof-image" />}
    </section>
  );
}

/** The proposal waiting for a second member, and the rule that asked for two (ADR 0022). */
function Proposal({ appeal }: { appeal: C2cAppeal }) {
  const { t } = useI18n();
  const { proposal, twoPersonReason } = appeal;
  if (!proposal) return null;
  return (
    <section aria-label={t('admin.appeals.section.proposal')} data-testid="c2c-appeal-proposal" data-outcome={proposal.outcome}>
      <h4>{t('admin.appeals.section.proposal')}</h4>
      {appeal.resolution === null && (
        <p className="notice" data-testid="c2c-appeal-proposal-waiting">
          {t('admin.appeals.proposal.waiting', {
            staff: proposal.staff,
            resolution: t(`admin.c2c.outcome.${proposal.outcome}`),
            time: formatEpochMs(proposal.atMs),
          })}
        </p>
      )}
      {twoPersonReason && (
        <p className="notice" data-testid="two-person-reason">
          <TwoPersonReasonText reason={twoPersonReason} />
        </p>
      )}
      <dl className="fields">
        <Field label={t('admin.appeals.proposal.outcome')} testId="field-proposalOutcome">
          {t(`admin.c2c.outcome.${proposal.outcome}`)}
        </Field>
        <Field label={t('admin.appeals.proposal.by')} testId="field-proposedBy">
          {proposal.staff}
        </Field>
        <Field label={t('admin.appeals.proposal.at')} testId="field-proposedAt">
          {formatEpochMs(proposal.atMs)}
        </Field>
        <Field label={t('admin.appeals.proposal.note')} testId="field-proposalNote">
          <span className="chat-text" dir="auto">
            {proposal.note}
          </span>
        </Field>
      </dl>
    </section>
  );
}

/**
 * The decision on an open C2C appeal: complete the order (the held USDT to the receiver) or fail
 * it (the hold released), with a note both sides read, checked by the contract's rule. A
 * confirmation names the order, its USDT and fiat, both sides and what happens to the held USDT;
 * staff never type an amount. Each confirmation is one action with its own Idempotency-Key. Under
 * the two-person rule the first member's choice is a proposal a different member confirms by
 * choosing the same outcome (ADR 0022).
 */
function ResolvePanel({ appeal, onResolved }: { appeal: C2cAppeal; onResolved: (updated: C2cAppeal) => void }) {
  const { t } = useI18n();
  const resolution = useMoneyAction(resolveC2cAppealContract, { invalidates: [listC2cAppealsContract] });
  const { ask, dialog } = useConfirmation(resolution.busy);
  const { proposal } = appeal;
  const form = useContractForm(bodyOf(resolveC2cAppealContract), {
    defaultValues: { outcome: proposal?.outcome ?? 'complete', note: proposal?.note ?? '' },
    messages: { note: { too_small: fieldMessage('admin.appeals.noteTooShort'), invalid_format: fieldMessage('admin.appeals.noteInvalid') } },
  });
  const refusal = resolveRefusalKey(resolution.error);

  const confirmThenResolve = form.handleSubmit((body) => {
    const named = {
      orderNo: appeal.orderNo,
      usdt: appeal.usdt,
      fiat: appeal.fiat ?? '—',
      currency: appeal.currency,
      user: appeal.user,
      merchant: appeal.merchant?.name ?? '—',
    };
    const consequence =
      proposal === null
        ? t('admin.confirm.appeal.maybeProposal')
        : proposal.outcome === body.outcome
          ? t('admin.confirm.appeal.confirmsProposal', { staff: proposal.staff })
          : t('admin.confirm.appeal.replacesProposal', { staff: proposal.staff });
    ask(
      {
        title: t(`admin.c2c.appeals.confirm.${body.outcome}Title`, named),
        text: `${t(resolutionEffectKey(appeal.kind, body.outcome), named)} ${consequence}`,
        confirmLabel: t(`admin.c2c.appeals.${body.outcome}`),
        danger: body.outcome === 'fail',
        testId: 'c2c-resolve-dialog',
      },
      async () => {
        const updated = await resolution.run({ params: { requestId: appeal.id }, body });
        if (updated) onResolved(updated);
      },
    );
  });
  const choose = (outcome: Outcome) => {
    form.setValue('outcome', outcome);
    void confirmThenResolve();
  };

  return (
    <section className="decision" aria-label={t('admin.c2c.appeals.resolve.title')} data-testid="c2c-appeal-resolve">
      {dialog}
      <h4>{t('admin.c2c.appeals.resolve.title')}</h4>
      <p className="muted">{t(`admin.c2c.appeals.resolve.intro.${appeal.kind}`)}</p>
      <form onSubmit={confirmThenResolve} noValidate>
        <label>
          {t('admin.appeals.noteLabel')}
          <textarea minLength={3} maxLength={500} required dir="auto" aria-describedby="c2c-resolve-note-error" data-testid="c2c-resolve-note" {...form.register('note')} />
        </label>
        <FieldErrorText error={form.formState.errors.note} id="c2c-resolve-note-error" />
        <p className="muted">{t('admin.c2c.appeals.noteShown')}</p>
        <ErrorAlert error={resolution.error} />
        {refusal && (
          <p className="notice" data-testid="c2c-resolve-refusal">
            {t(refusal)}
          </p>
        )}
        <div className="row">
          <button type="button" className="secondary" onClick={() => choose('fail')} disabled={resolution.busy} data-testid="c2c-resolve-fail">
            {t('admin.c2c.appeals.fail')}
          </button>
          <button type="button" onClick={() => choose('complete')} disabled={resolution.busy} data-testid="c2c-resolve-complete">
            {t('admin.c2c.appeals.complete')}
          </button>
        </div>
      </form>
    </section>
  );
}

function AppealDetail({ appeal, onClose, onResolved }: { appeal: C2cAppeal; onClose: () => void; onResolved: (updated: C2cAppeal) => void }) {
  const { t } = useI18n();
  const heading = t('admin.c2c.appeals.detail', { orderNo: appeal.orderNo });
  return (
    <DetailCard label={heading} title={heading} closeLabel={t('admin.appeals.close')} onClose={onClose} testId="c2c-appeal-detail">
      <h4>{t('admin.c2c.appeals.section.order')}</h4>
      <OrderFields request={appeal} />
      <BankDetailsList request={appeal} />
      <ProofOnDemand appeal={appeal} />
      <Proposal appeal={appeal} />
      {appeal.status === 'appealing' ? (
        <ResolvePanel appeal={appeal} onResolved={onResolved} />
      ) : (
        appeal.resolvedBy && (
          <p className="muted" data-testid="c2c-appeal-resolved-by">
            {t('admin.c2c.appeals.resolvedBy', { staff: appeal.resolvedBy })}
          </p>
        )
      )}
    </DetailCard>
  );
}

/**
 * /admin/c2c/appeals/:requestId — one appeal above the list it was opened from. Staff read C2C
 * appeals only through the list, so an appeal opens from the page of the list that shows it; a
 * link to one the list does not show (resolved meanwhile, or on another page) says so.
 */
export function C2cAppealDetailRoute() {
  const { t } = useI18n();
  const { requestId = '' } = useParams();
  const { items, loading, resolved, close } = useOutletContext<AppealsOutlet>();
  const appeal = appealIn(items, requestId);
  if (appeal) return <AppealDetail key={appeal.id} appeal={appeal} onClose={close} onResolved={resolved} />;
  return (
    <section className="card detail" data-testid="record-state" aria-busy={loading}>
      <p className="muted" data-testid={loading ? undefined : 'c2c-appeal-missing'}>
        {t(loading ? 'admin.loading' : 'admin.c2c.appeals.missing')}
      </p>
      <div className="row">
        <button type="button" className="secondary" onClick={close}>
          {t('admin.finance.close')}
        </button>
      </div>
    </section>
  );
}

/**
 * C2C appeals (issue 19, ADR 0043; role support): orders sent to support by the user, the
 * merchant, or the system (a paid withdrawal the user left unanswered: nothing is released on
 * silence); open ones oldest first, resolved ones newest first, the state and page in the URL. An
 * appeal opens at its own URL with the order, who appealed and why, the bank details or the
 * screenshot, and the resolution: complete or fail, with a note both sides read — by two members
 * when the two-person rule applies. No staff action here sets a price or an amount.
 */
export function C2cAppealsPage() {
  const { t } = useI18n();
  const { filter, searchFor, list, table } = useListQuery(listC2cAppealsContract, PAGE_SIZE);
  const status = filter.status as AppealStatus;
  const { recordTo, close } = useRecordLinks(LIST_PATH);
  // A notice belongs to the state it was given in.
  const [notice, setNotice] = useState<{ status: AppealStatus; text: string; testId: string } | null>(null);

  function resolved(updated: C2cAppeal) {
    if (updated.resolution) {
      setNotice({
        status,
        text: t('admin.c2c.appeals.notice.resolved', { orderNo: updated.orderNo, outcome: t(`admin.c2c.outcome.${updated.resolution.outcome}`) }),
        testId: 'c2c-appeal-resolved',
      });
      close();
    } else if (updated.proposal) {
      // The two-person rule applied: only a proposal was recorded, nothing moved.
      setNotice({
        status,
        text: t('admin.c2c.appeals.notice.proposed', { orderNo: updated.orderNo, outcome: t(`admin.c2c.outcome.${updated.proposal.outcome}`) }),
        testId: 'c2c-appeal-proposed',
      });
    }
  }

  return (
    <section data-testid="c2c-appeals-page">
      <h2>{t('admin.c2c.appeals.title')}</h2>
      <p className="muted">{t('admin.c2c.appeals.intro')}</p>
      <TwoPersonRuleNote />
      <StatusTabs
        label={t('admin.appeals.tabs')}
        statuses={statuses}
        status={status}
        labelOf={(each) => t(`admin.appeals.status.${each}`)}
        linkTo={(each) => ({ pathname: LIST_PATH, search: searchFor({ status: each }) })}
      />
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => void list.refetch()} data-testid="c2c-appeals-refresh">
          {t('admin.appeals.refresh')}
        </button>
      </div>
      <ErrorAlert error={list.error} />
      {notice?.status === status && (
        <p className="notice" role="status" data-testid={notice.testId}>
          {notice.text}
        </p>
      )}
      <Outlet
        context={
          {
            items: list.data?.items,
            loading: list.isPending || list.isPlaceholderData,
            resolved,
            close: () => {
              setNotice(null);
              close();
            },
          } satisfies AppealsOutlet
        }
      />
      <PagedTable<C2cAppeal>
        {...table}
        total="admin.c2c.appeals.total"
        empty={{ text: 'admin.c2c.appeals.empty', testId: 'c2c-appeals-empty' }}
        columns={[
          'admin.c2c.field.orderNo',
          'admin.c2c.field.kind',
          'admin.c2c.field.user',
          'admin.c2c.field.merchant',
          'admin.c2c.field.usdt',
          'admin.c2c.field.fiat',
          'admin.c2c.field.appeal',
          'admin.c2c.field.status',
          'admin.appeals.col.actions',
        ]}
        row={(appeal) => (
          <tr data-testid={`c2c-appeal-row-${appeal.id}`} data-order-no={appeal.orderNo}>
            <td>
              <code className="order-no">{appeal.orderNo}</code>
              {appeal.resolution === null && appeal.proposal && (
                <div>
                  <span className="status status-pending" data-testid="needs-second-approver">
                    {t('admin.appeals.proposal.badge', { resolution: t(`admin.c2c.outcome.${appeal.proposal.outcome}`), staff: appeal.proposal.staff })}
                  </span>
                </div>
              )}
            </td>
            <td>{t(`admin.c2c.kind.${appeal.kind}`)}</td>
            <td>{appeal.user}</td>
            <td>{appeal.merchant ? `${appeal.merchant.name} (#${appeal.merchant.id})` : '—'}</td>
            <td>{appeal.usdt} USDT</td>
            <td>{appeal.fiat ? `${appeal.fiat} ${appeal.currency}` : '—'}</td>
            <td>
              {appeal.appeal && (
                <>
                  {t(`admin.c2c.appealBy.${appeal.appeal.by}`)}
                  <p className="body" dir="auto">
                    {appeal.appeal.reason}
                  </p>
                </>
              )}
            </td>
            <td>
              <StatusBadge request={appeal} />
              {appeal.resolution && <div className="muted">{t(`admin.c2c.outcome.${appeal.resolution.outcome}`)}</div>}
            </td>
            <td>
              <Link to={recordTo(appeal.id)} onClick={() => setNotice(null)} data-testid={`c2c-appeal-open-${appeal.id}`}>
                {t('admin.appeals.view')}
              </Link>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
