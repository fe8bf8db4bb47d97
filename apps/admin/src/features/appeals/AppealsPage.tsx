import { type ContractData, getP2pAppealContract, listP2pAppealsContract, resolveP2pAppealContract } from '@keel/contracts';
import { useState } from 'react';
import { Link, Outlet, useOutletContext } from 'react-router';
import { DetailCard } from '../../shared/DetailCard.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatDateTime } from '../../shared/format.ts';
import { bodyOf, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useListQuery } from '../../shared/list-query.ts';
import { useMoneyAction } from '../../shared/money-action.ts';
import { PagedTable } from '../../shared/PagedTable.tsx';
import { RecordRoute, useRecordLinks, useSeedRecord } from '../../shared/record-route.tsx';
import { StatusTabs } from '../../shared/StatusTabs.tsx';
import { useStaffImage } from '../../shared/staff-image.ts';
import { Field, TwoPersonReasonText, TwoPersonRuleNote, useConfirmation } from '../finance/finance-shared.tsx';

type Appeal = ContractData<typeof getP2pAppealContract>;
type ChatMessage = Appeal['chat'][number];
type AppealStatus = 'open' | 'resolved';
type Outcome = 'release' | 'refund';
type Side = 'buyer' | 'seller';

const PAGE_SIZE = 20;
const LIST_PATH = '/appeals';
/** The read that opens one appeal at /admin/appeals/:orderId. */
const appealRead = { contract: getP2pAppealContract, param: 'orderId' };
const statuses: readonly [AppealStatus, AppealStatus] = ['open', 'resolved'];

/** What the appeals queue gives the appeal opened under it: where a resolution is reported, how to close it. */
type AppealsOutlet = { resolved: (updated: Appeal) => void; close: () => void };

/** A side of the order by its role and account: "Buyer: alice (#12)". */
function Party({ appeal, side }: { appeal: Appeal; side: Side }) {
  const { t } = useI18n();
  const name = side === 'buyer' ? appeal.order.buyerName : appeal.order.sellerName;
  const id = side === 'buyer' ? appeal.buyerId : appeal.sellerId;
  return <>{t('admin.appeals.party', { side: t(`admin.appeals.side.${side}`), name, id })}</>;
}

/** A chat image, fetched with the staff token; the server writes each view to the audit log. */
function ChatImage({ message, sender }: { message: ChatMessage; sender: string }) {
  const { t, describeError } = useI18n();
  const { url, error } = useStaffImage(`/home/admin/p2p/chat/${message.id}/image`);
  const label = t('admin.appeals.chat.imageFrom', { name: sender });
  if (error) return <ErrorAlert message={describeError(error)} />;
  if (!url) return <p className="muted">{t('admin.appeals.chat.imageLoading')}</p>;
  return (
    <a href={url} target="_blank" rel="noreferrer">
      <img className="chat-image" src={url} alt={label} data-testid={`chat-image-${message.id}`} />
    </a>
  );
}

/**
 * The full chat of the order, oldest first, as the two sides wrote it: withdrawn messages keep
 * their original text (marked with when they were withdrawn). Texts are React text nodes, never HTML.
 */
function Chat({ appeal }: { appeal: Appeal }) {
  const { t } = useI18n();
  const senderName = (side: Side) => (side === 'buyer' ? appeal.order.buyerName : appeal.order.sellerName);
  return (
    <section aria-label={t('admin.appeals.section.chat')} data-testid="appeal-chat">
      <h4>{t('admin.appeals.section.chat')}</h4>
      <p className="muted" data-testid="appeal-chat-audited">
        {t('admin.appeals.chat.audited')}
      </p>
      {appeal.chat.length === 0 ? (
        <p className="muted" data-testid="appeal-chat-empty">
          {t('admin.appeals.chat.empty')}
        </p>
      ) : (
        <ol className="chat">
          {appeal.chat.map((message) => (
            <li
              key={message.id}
              className={`chat-message from-${message.from}${message.withdrawnAt ? ' withdrawn' : ''}`}
              data-testid={`chat-message-${message.id}`}
            >
              <div className="chat-meta">
                <strong>
                  <Party appeal={appeal} side={message.from} />
                </strong>
                <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                {message.withdrawnAt && (
                  <span className="status status-withdrawn" data-testid={`chat-withdrawn-${message.id}`}>
                    {t('admin.appeals.chat.withdrawnAt', { time: formatDateTime(message.withdrawnAt) })}
                  </span>
                )}
              </div>
              {message.text !== null && (
                <p className="chat-text" dir="auto">
                  {message.text}
                </p>
              )}
              {message.hasImage && <ChatImage message={message} sender={senderName(message.from)} />}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * The decision on an open appeal: release to the buyer or refund the seller, with a note both
 * sides read (checked by the contract's rule before anything is asked). A confirmation dialog
 * names the effect with the order's own amounts and both users (staff never type an amount); each
 * confirmation is one action with its own Idempotency-Key (`useMoneyAction`). Under the
 * two-person rule the first member's choice is a proposal that a different member confirms by
 * choosing the same outcome (ADR 0022); the dialog says which.
 */
function ResolvePanel({ appeal, onResolved }: { appeal: Appeal; onResolved: (updated: Appeal) => void }) {
  const { t } = useI18n();
  // A resolution (or a proposal) changes the queue and the appeal: both are read again.
  const resolution = useMoneyAction(resolveP2pAppealContract, { invalidates: [listP2pAppealsContract, getP2pAppealContract] });
  const { ask, dialog } = useConfirmation(resolution.busy);
  const { order, proposal } = appeal;
  const form = useContractForm(bodyOf(resolveP2pAppealContract), {
    // Confirming a proposal: the note starts as the proposer's, which the confirming member may keep.
    defaultValues: { outcome: proposal?.outcome ?? 'release', note: proposal?.note ?? '' },
    // The contract's plain-text rule, said for a note: one line, no angle brackets.
    messages: { note: { invalid_format: fieldMessage('admin.appeals.noteInvalid') } },
  });

  const confirmThenResolve = form.handleSubmit((body) => {
    const named = {
      orderNo: order.orderNo,
      quantity: order.quantity,
      asset: order.asset,
      buyerReceives: order.buyerReceives,
      fee: order.fee,
      buyer: `${order.buyerName} (#${appeal.buyerId})`,
      seller: `${order.sellerName} (#${appeal.sellerId})`,
    };
    // What happens on confirm: possibly only a proposal (the rule decides on the server), the
    // confirmation of another member's proposal (final), or a proposal replacing theirs.
    const consequence =
      proposal === null
        ? t('admin.confirm.appeal.maybeProposal')
        : proposal.outcome === body.outcome
          ? `${t('admin.confirm.appeal.confirmsProposal', { staff: proposal.staff })} ${t('admin.appeals.confirm.final')}`
          : t('admin.confirm.appeal.replacesProposal', { staff: proposal.staff });
    ask(
      {
        title: t(`admin.confirm.appeal.${body.outcome}.title`, named),
        text: `${t(`admin.confirm.appeal.${body.outcome}.text`, named)} ${consequence}`,
        confirmLabel: t(`admin.appeals.confirm.${body.outcome}`),
        danger: body.outcome === 'refund',
      },
      async () => {
        const updated = await resolution.run({ params: { orderId: order.id }, body });
        if (updated) onResolved(updated);
      },
    );
  });
  const choose = (outcome: Outcome) => {
    form.setValue('outcome', outcome);
    void confirmThenResolve();
  };

  return (
    <section className="decision" aria-label={t('admin.appeals.section.resolution')} data-testid="appeal-resolve">
      {dialog}
      <h4>{t('admin.appeals.section.resolution')}</h4>
      <p className="muted">{t('admin.appeals.resolve.intro')}</p>
      <form onSubmit={confirmThenResolve} noValidate>
        <label>
          {t('admin.appeals.noteLabel')}
          <textarea minLength={3} maxLength={500} required dir="auto" aria-describedby="appeal-note-error" {...form.register('note')} />
        </label>
        <FieldErrorText error={form.formState.errors.note} id="appeal-note-error" />
        <p className="muted">{t('admin.appeals.noteShown')}</p>
        <ErrorAlert error={resolution.error} />
        <div className="row">
          <button type="button" className="secondary" onClick={() => choose('refund')} disabled={resolution.busy} data-testid="appeal-refund">
            {t('admin.appeals.refund')}
          </button>
          <button type="button" onClick={() => choose('release')} disabled={resolution.busy} data-testid="appeal-release">
            {t('admin.appeals.release')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The proposal waiting for a second member (or that was confirmed), and the rule that asked for two. */
function Proposal({ appeal }: { appeal: Appeal }) {
  const { t } = useI18n();
  const { proposal, twoPersonReason } = appeal;
  if (!proposal) return null;
  return (
    <section aria-label={t('admin.appeals.section.proposal')} data-testid="appeal-proposal">
      <h4>{t('admin.appeals.section.proposal')}</h4>
      {appeal.resolution === null && (
        <p className="notice" data-testid="appeal-proposal-waiting">
          {t('admin.appeals.proposal.waiting', {
            staff: proposal.staff,
            resolution: t(`admin.appeals.resolution.${proposal.outcome}`),
            time: formatDateTime(proposal.at),
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
          {t(`admin.appeals.resolution.${proposal.outcome}`)}
        </Field>
        <Field label={t('admin.appeals.proposal.by')} testId="field-proposedBy">
          {proposal.staff}
        </Field>
        <Field label={t('admin.appeals.proposal.at')} testId="field-proposedAt">
          {formatDateTime(proposal.at)}
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

function Detail({ appeal, onClose, onResolved }: { appeal: Appeal; onClose: () => void; onResolved: (updated: Appeal) => void }) {
  const { t } = useI18n();
  const { order } = appeal;
  const heading = t('admin.appeals.detail', { orderNo: order.orderNo });
  const money = (amount: string, unit: string) => `${amount} ${unit}`;
  return (
    <DetailCard label={heading} title={heading} closeLabel={t('admin.appeals.close')} onClose={onClose} testId="appeal-detail">
      <h4>{t('admin.appeals.section.order')}</h4>
      <dl className="fields" data-testid="appeal-order">
        <Field label={t('admin.appeals.field.orderNo')} testId="field-orderNo">
          {order.orderNo} (#{order.id})
        </Field>
        <Field label={t('admin.appeals.field.status')} testId="field-status">
          {t(`admin.appeals.orderStatus.${order.status}`)}
        </Field>
        <Field label={t('admin.appeals.field.ad')} testId="field-ad">
          #{order.adId}
        </Field>
        <Field label={t('admin.appeals.field.buyer')} testId="field-buyer">
          {order.buyerName} (#{appeal.buyerId})
        </Field>
        <Field label={t('admin.appeals.field.seller')} testId="field-seller">
          {order.sellerName} (#{appeal.sellerId})
        </Field>
        <Field label={t('admin.appeals.field.quantity')} testId="field-quantity">
          {money(order.quantity, order.asset)}
        </Field>
        <Field label={t('admin.appeals.field.price')} testId="field-price">
          {t('admin.appeals.field.priceValue', { price: order.price, fiat: order.fiat, asset: order.asset })}
        </Field>
        <Field label={t('admin.appeals.field.total')} testId="field-total">
          {money(order.total, order.fiat)}
        </Field>
        <Field label={t('admin.appeals.field.fee')} testId="field-fee">
          {money(order.fee, order.asset)}
        </Field>
        <Field label={t('admin.appeals.field.buyerReceives')} testId="field-buyerReceives">
          {money(order.buyerReceives, order.asset)}
        </Field>
        <Field label={t('admin.appeals.field.remark')} testId="field-remark">
          {order.remark ? (
            <span className="chat-text" dir="auto">
              {order.remark}
            </span>
          ) : null}
        </Field>
        <Field label={t('admin.appeals.field.sellerContact')} testId="field-sellerContact">
          {order.sellerContact ? (
            <span className="chat-text" dir="auto">
              {order.sellerContact}
            </span>
          ) : null}
        </Field>
        <Field label={t('admin.appeals.field.createdAt')} testId="field-createdAt">
          {formatDateTime(order.createdAt)}
        </Field>
        <Field label={t('admin.appeals.field.paymentDeadline')} testId="field-paymentDeadline">
          {formatDateTime(order.paymentDeadline)}
        </Field>
        <Field label={t('admin.appeals.field.paidAt')} testId="field-paidAt">
          {order.paidAt ? formatDateTime(order.paidAt) : t('admin.appeals.notYet')}
        </Field>
        <Field label={t('admin.appeals.field.cancelReason')} testId="field-cancelReason">
          {order.cancelReason ? t(`admin.appeals.cancelReason.${order.cancelReason}`) : null}
        </Field>
        <Field label={t('admin.appeals.field.endedAt')} testId="field-endedAt">
          {order.endedAt ? formatDateTime(order.endedAt) : null}
        </Field>
        <Field label={t('admin.appeals.field.closingEntry')} testId="field-closingEntry">
          {order.closingEntryId}
        </Field>
      </dl>
      <h4>{t('admin.appeals.section.appeal')}</h4>
      <dl className="fields" data-testid="appeal-opened">
        <Field label={t('admin.appeals.field.openedBy')} testId="field-openedBy">
          <Party appeal={appeal} side={appeal.openedBy} />
        </Field>
        <Field label={t('admin.appeals.field.openedAt')} testId="field-openedAt">
          {formatDateTime(appeal.openedAt)}
        </Field>
        <Field label={t('admin.appeals.field.reason')} testId="field-reason">
          <span className="chat-text" dir="auto">
            {appeal.reason}
          </span>
        </Field>
      </dl>
      <Chat appeal={appeal} />
      <Proposal appeal={appeal} />
      {appeal.resolution === null ? (
        <ResolvePanel appeal={appeal} onResolved={onResolved} />
      ) : (
        <section aria-label={t('admin.appeals.section.resolution')} data-testid="appeal-resolution">
          <h4>{t('admin.appeals.section.resolution')}</h4>
          <dl className="fields">
            <Field label={t('admin.appeals.field.resolution')} testId="field-resolution">
              {t(`admin.appeals.resolution.${appeal.resolution}`)}
            </Field>
            <Field label={t('admin.appeals.field.resolvedBy')} testId="field-resolvedBy">
              {appeal.resolvedBy}
            </Field>
            <Field label={t('admin.appeals.field.resolvedAt')} testId="field-resolvedAt">
              {appeal.resolvedAt ? formatDateTime(appeal.resolvedAt) : null}
            </Field>
            <Field label={t('admin.appeals.field.note')} testId="field-note">
              {appeal.note ? (
                <span className="chat-text" dir="auto">
                  {appeal.note}
                </span>
              ) : null}
            </Field>
          </dl>
        </section>
      )}
    </DetailCard>
  );
}

/** /admin/appeals/:orderId — one appeal, open or resolved, above the queue it was opened from. */
export function AppealDetailRoute() {
  const { resolved, close } = useOutletContext<AppealsOutlet>();
  return (
    <RecordRoute read={appealRead} onClose={close}>
      {(appeal) => <Detail key={appeal.order.id} appeal={appeal} onClose={close} onResolved={resolved} />}
    </RecordRoute>
  );
}

/**
 * P2P appeals (roles admin and support): open ones oldest first, resolved ones newest first, the
 * state and page in the URL. An appeal opens at its own URL (/admin/appeals/:orderId) with every
 * fact of the order, who appealed and why, and the full chat; an open appeal is resolved to one
 * of two outcomes (release to the buyer, refund the seller) with a note both sides read — by two
 * members when the two-person rule applies (a proposal, then a confirmation; open proposals are
 * marked in the queue). No staff action here sets a price, an amount or a balance.
 */
export function AppealsPage() {
  const { t } = useI18n();
  const { filter, searchFor, list, table } = useListQuery(listP2pAppealsContract, PAGE_SIZE);
  const status = filter.status;
  const { recordTo, close } = useRecordLinks(LIST_PATH);
  const seed = useSeedRecord(appealRead);
  // A notice belongs to the state it was given in: another tab does not show it.
  const [notice, setNotice] = useState<{ status: AppealStatus; text: string } | null>(null);

  function resolved(updated: Appeal) {
    // The appeal stays open on the recorded decision; the open queue no longer lists it.
    if (updated.resolution) {
      const resolution = t(`admin.appeals.resolution.${updated.resolution}`);
      setNotice({ status, text: t('admin.appeals.notice.resolved', { orderNo: updated.order.orderNo, resolution }) });
    } else if (updated.proposal) {
      // The two-person rule applied: only a proposal was recorded, nothing moved.
      const resolution = t(`admin.appeals.resolution.${updated.proposal.outcome}`);
      setNotice({ status, text: t('admin.appeals.notice.proposed', { orderNo: updated.order.orderNo, resolution }) });
    }
  }

  const columns = [
    'admin.appeals.col.order',
    'admin.appeals.col.buyer',
    'admin.appeals.col.seller',
    'admin.appeals.col.quantity',
    'admin.appeals.col.total',
    'admin.appeals.col.opened',
    'admin.appeals.col.reason',
    ...(status === 'resolved' ? (['admin.appeals.col.resolution'] as const) : []),
    'admin.appeals.col.actions',
  ] as const;

  return (
    <section>
      <h2>{t('admin.appeals.title')}</h2>
      <p className="muted">{t('admin.appeals.intro')}</p>
      <TwoPersonRuleNote />
      <StatusTabs
        label={t('admin.appeals.tabs')}
        statuses={statuses}
        status={status}
        labelOf={(each) => t(`admin.appeals.status.${each}`)}
        linkTo={(each) => ({ pathname: LIST_PATH, search: searchFor({ status: each }) })}
      />
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => void list.refetch()}>
          {t('admin.appeals.refresh')}
        </button>
      </div>
      <ErrorAlert error={list.error} />
      {notice?.status === status && (
        <p className="notice" role="status" data-testid="appeal-notice">
          {notice.text}
        </p>
      )}
      <Outlet
        context={
          {
            resolved,
            close: () => {
              setNotice(null);
              close();
            },
          } satisfies AppealsOutlet
        }
      />
      <PagedTable
        {...table}
        rowKey={(item) => item.order.id}
        total="admin.appeals.total"
        empty={{ text: 'admin.appeals.empty', testId: 'appeals-empty' }}
        columns={columns}
        row={(item) => (
          <tr data-testid={`appeal-row-${item.order.id}`}>
            <td>
              {item.order.orderNo}
              {item.resolution === null && item.proposal && (
                <div>
                  <span className="status status-pending" data-testid="needs-second-approver">
                    {t('admin.appeals.proposal.badge', { resolution: t(`admin.appeals.resolution.${item.proposal.outcome}`), staff: item.proposal.staff })}
                  </span>
                </div>
              )}
            </td>
            <td>
              {item.order.buyerName} (#{item.buyerId})
            </td>
            <td>
              {item.order.sellerName} (#{item.sellerId})
            </td>
            <td>
              {item.order.quantity} {item.order.asset}
            </td>
            <td>
              {item.order.total} {item.order.fiat}
            </td>
            <td>
              {t(`admin.appeals.side.${item.openedBy}`)}
              <div className="muted">{formatDateTime(item.openedAt)}</div>
            </td>
            <td>
              <p className="body" dir="auto">
                {item.reason}
              </p>
            </td>
            {status === 'resolved' && <td>{item.resolution ? t(`admin.appeals.resolution.${item.resolution}`) : ''}</td>}
            <td>
              <Link
                to={recordTo(item.order.id)}
                onClick={() => {
                  seed(item.order.id, item);
                  setNotice(null);
                }}
              >
                {t('admin.appeals.view')}
              </Link>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
