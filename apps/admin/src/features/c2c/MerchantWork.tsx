import {
  acceptC2cOfferContract,
  appealC2cAsMerchantContract,
  confirmC2cFiatReceivedContract,
  declineC2cOfferContract,
  getMerchantProfileContract,
  listMerchantRequestsContract,
  markC2cFiatSentContract,
} from '@keel/contracts';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { bodyOf, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useMoneyAction } from '../../shared/money-action.ts';
import { useContractQuery } from '../../shared/queries.ts';
import { useConfirmation } from '../finance/finance-shared.tsx';
import { type MerchantProfile, type MerchantRequest, merchantStepOf, stepRefusalKey } from './c2c-console.ts';
import { BankDetailsList, Countdown, OrderFields, ProofImage } from './c2c-parts.tsx';
import { useConsole } from './console-outlet.ts';

/** New offers must show up within their minute: the lists are read again this often. */
const WORK_POLL_MS = 2_000;
const WORK_PAGE_SIZE = 50;
/** Every merchant step changes the lists and the float. */
const stepChanges = { invalidates: [listMerchantRequestsContract, getMerchantProfileContract] };

type Notice = { text: string; testId: string } | null;

/**
 * The step contracts' bodies, with the types their schemas have: the contracts build the step
 * contracts with a helper whose body parameter is any zod type, so the body's type is not carried.
 */
const appealBody = bodyOf(appealC2cAsMerchantContract) as z.ZodType<{ reason: string }, { reason: string }>;
const paidBody = bodyOf(markC2cFiatSentContract) as z.ZodType<{ paymentReference: string }, { paymentReference: string }>;

/** A refused step: the catalogue's message and what it means here (the window passed, the float is short …). */
function StepRefusal({ error }: { error: unknown }) {
  const { t } = useI18n();
  const key = stepRefusalKey(error);
  return (
    <>
      <ErrorAlert error={error} />
      {key && (
        <p className="notice" data-testid="c2c-step-refusal">
          {t(key)}
        </p>
      )}
    </>
  );
}

/**
 * A refusal that ends the card it was given on (the window passed, the order changed, the offer
 * went elsewhere: the next read drops or redraws the card) is also said above the lists, so it is
 * not lost with the card.
 */
function useLiftedRefusal(error: unknown, report: (notice: Notice) => void) {
  const { t } = useI18n();
  useEffect(() => {
    const key = stepRefusalKey(error);
    if (key) report({ text: t(key), testId: 'c2c-step-refused' });
  }, [error, report, t]);
}

/**
 * /admin/c2c/merchant — the work: the offers waiting for the merchant's answer, each with the
 * countdown of its window, and the orders in progress with the step each waits for. Both lists are
 * read again every two seconds, so a new offer shows up within its window.
 */
export function MerchantWorkTab() {
  const { t } = useI18n();
  const { profile } = useConsole();
  const offers = useContractQuery(
    listMerchantRequestsContract,
    { query: { state: 'offers', page: 1, pageSize: WORK_PAGE_SIZE } },
    { staleTime: 0, refetchInterval: WORK_POLL_MS, keepPrevious: true },
  );
  const open = useContractQuery(
    listMerchantRequestsContract,
    { query: { state: 'open', page: 1, pageSize: WORK_PAGE_SIZE } },
    { staleTime: 0, refetchInterval: WORK_POLL_MS, keepPrevious: true },
  );
  const [notice, setNotice] = useState<Notice>(null);

  return (
    <div className="c2c-work">
      {notice && (
        <p className="notice" role="status" data-testid={notice.testId}>
          {notice.text}
        </p>
      )}
      <section aria-label={t('admin.c2c.offers.title')} data-testid="c2c-offers">
        <h3>{t('admin.c2c.offers.title', { count: offers.data?.total ?? 0 })}</h3>
        <p className="muted">{t('admin.c2c.offers.intro')}</p>
        <ErrorAlert error={offers.error} />
        {offers.data && offers.data.items.length === 0 && (
          <p className="muted" data-testid="c2c-offers-empty">
            {t(profile?.online ? 'admin.c2c.offers.emptyOnline' : 'admin.c2c.offers.emptyOffline')}
          </p>
        )}
        <ul className="c2c-cards">
          {offers.data?.items.map((offer) => (
            <OfferCard key={offer.id} offer={offer} profile={profile} onAnswered={setNotice} />
          ))}
        </ul>
      </section>
      <section aria-label={t('admin.c2c.orders.title')} data-testid="c2c-open-orders">
        <h3>{t('admin.c2c.orders.title', { count: open.data?.total ?? 0 })}</h3>
        <ErrorAlert error={open.error} />
        {open.data && open.data.items.length === 0 && (
          <p className="muted" data-testid="c2c-orders-empty">
            {t('admin.c2c.orders.empty')}
          </p>
        )}
        <ul className="c2c-cards">
          {open.data?.items.map((order) => (
            <OrderCard key={order.id} order={order} onStep={setNotice} />
          ))}
        </ul>
      </section>
    </div>
  );
}

/**
 * One offer: the order, the user's quoted price beside the merchant's own for the country, and
 * accept or decline within the window. Accepting a deposit holds its USDT on the float at once
 * (refused when the free float no longer covers it); declining offers it to the next merchant.
 */
function OfferCard({ offer, profile, onAnswered }: { offer: MerchantRequest; profile: MerchantProfile | null; onAnswered: (notice: Notice) => void }) {
  const { t } = useI18n();
  const accept = useMoneyAction(acceptC2cOfferContract, stepChanges);
  const decline = useMoneyAction(declineC2cOfferContract, stepChanges);
  const busy = accept.busy || decline.busy;
  const myTerms = profile?.terms.find((terms) => terms.country === offer.country);
  const error = accept.error ?? decline.error;
  useLiftedRefusal(error, onAnswered);

  const answer = async (yes: boolean) => {
    (yes ? decline : accept).reset();
    // The steps without a body still name it: the contracts' step helper types it loosely.
    const input = { params: { requestId: offer.id }, body: undefined };
    const answered = yes ? await accept.run(input) : await decline.run(input);
    if (answered) {
      onAnswered({
        text: t(yes ? 'admin.c2c.offers.accepted' : 'admin.c2c.offers.declined', { orderNo: answered.orderNo }),
        testId: yes ? 'c2c-offer-accepted' : 'c2c-offer-declined',
      });
    }
  };

  return (
    <li className="card c2c-card" data-testid={`c2c-offer-${offer.id}`} data-order-no={offer.orderNo} data-kind={offer.kind}>
      <div className="row spread">
        <strong>{t(`admin.c2c.offer.heading.${offer.kind}`, { usdt: offer.usdt, country: offer.country, user: offer.user })}</strong>
        <Countdown request={offer} testId="c2c-offer-countdown" />
      </div>
      <OrderFields request={offer} merchant />
      {myTerms && (
        <p className="muted" data-testid="c2c-offer-my-price">
          {t('admin.c2c.offer.myPrice', { price: myTerms.price, currency: myTerms.currency })}
        </p>
      )}
      <p className="muted" data-testid="c2c-offer-effect">
        {offer.kind === 'deposit'
          ? t('admin.c2c.offer.depositEffect', { usdt: offer.usdt, available: profile?.float.available ?? '0' })
          : t('admin.c2c.offer.withdrawalEffect')}
      </p>
      <StepRefusal error={error} />
      <div className="row start">
        <button type="button" onClick={() => void answer(true)} disabled={busy} data-testid="c2c-offer-accept">
          {t('admin.c2c.offer.accept')}
        </button>
        <button type="button" className="secondary" onClick={() => void answer(false)} disabled={busy} data-testid="c2c-offer-decline">
          {t('admin.c2c.offer.decline')}
        </button>
      </div>
    </li>
  );
}

/** One order in progress: its facts and the step it waits for, the merchant's or the user's. */
function OrderCard({ order, onStep }: { order: MerchantRequest; onStep: (notice: Notice) => void }) {
  const { t } = useI18n();
  const step = merchantStepOf(order);
  return (
    <li className="card c2c-card" data-testid={`c2c-order-${order.id}`} data-order-no={order.orderNo} data-kind={order.kind} data-status={order.status} data-step={step}>
      <div className="row spread">
        <strong>{t(`admin.c2c.offer.heading.${order.kind}`, { usdt: order.usdt, country: order.country, user: order.user })}</strong>
        <Countdown request={order} testId="c2c-order-countdown" />
      </div>
      <OrderFields request={order} merchant />
      {step === 'await_user_payment' && (
        <p className="notice" data-testid="c2c-order-waiting">
          {t('admin.c2c.order.awaitUserPayment', { fiat: order.fiat ?? '', currency: order.currency })}
        </p>
      )}
      {step === 'confirm_or_appeal' && <ConfirmOrAppeal order={order} onStep={onStep} />}
      {step === 'send_fiat' && <SendFiat order={order} onStep={onStep} />}
      {step === 'await_user_confirm' && (
        <p className="notice" data-testid="c2c-order-waiting">
          {t('admin.c2c.order.awaitUserConfirm', { fiat: order.fiat ?? '', currency: order.currency })}
        </p>
      )}
      {step === 'with_support' && (
        <p className="notice" data-testid="c2c-order-with-support">
          {t('admin.c2c.order.withSupport')}
        </p>
      )}
    </li>
  );
}

/**
 * A paid deposit: the user's screenshot, then "fiat received" (after a confirmation naming what it
 * releases: the held USDT goes to the user at once) or an appeal to support with a reason, when
 * the fiat did not arrive.
 */
function ConfirmOrAppeal({ order, onStep }: { order: MerchantRequest; onStep: (notice: Notice) => void }) {
  const { t } = useI18n();
  const confirm = useMoneyAction(confirmC2cFiatReceivedContract, stepChanges);
  const appeal = useMoneyAction(appealC2cAsMerchantContract, stepChanges);
  const { ask, dialog } = useConfirmation(confirm.busy);
  const [appealing, setAppealing] = useState(false);
  const form = useContractForm(appealBody, {
    defaultValues: { reason: '' },
    messages: { reason: { too_small: fieldMessage('admin.c2c.appeal.reasonTooShort'), invalid_format: fieldMessage('admin.c2c.appeal.reasonInvalid') } },
  });
  const named = { orderNo: order.orderNo, fiat: order.fiat ?? '', currency: order.currency, usdt: order.usdt, user: order.user };
  useLiftedRefusal(confirm.error ?? appeal.error, onStep);

  const confirmReceived = () =>
    ask(
      {
        title: t('admin.c2c.confirmReceived.title', named),
        text: t('admin.c2c.confirmReceived.text', named),
        confirmLabel: t('admin.c2c.confirmReceived.confirm', named),
        testId: 'c2c-confirm-dialog',
      },
      async () => {
        appeal.reset();
        const done = await confirm.run({ params: { requestId: order.id }, body: undefined });
        if (done) onStep({ text: t('admin.c2c.order.confirmed', { orderNo: done.orderNo }), testId: 'c2c-order-confirmed' });
      },
    );

  const sendAppeal = form.handleSubmit(async (body) => {
    confirm.reset();
    const done = await appeal.run({ params: { requestId: order.id }, body });
    if (done) onStep({ text: t('admin.c2c.order.appealed', { orderNo: done.orderNo }), testId: 'c2c-order-appealed' });
  });

  return (
    <section className="decision" aria-label={t('admin.c2c.proof.title')} data-testid="c2c-order-paid-deposit">
      {dialog}
      <h4>{t('admin.c2c.proof.title')}</h4>
      {order.proofUploadId ? <ProofImage request={order} testId="c2c-order-proof" /> : <p className="muted">{t('admin.c2c.proof.none')}</p>}
      <p className="muted">{t('admin.c2c.order.checkFiat', named)}</p>
      <StepRefusal error={confirm.error ?? appeal.error} />
      {!appealing ? (
        <div className="row start">
          <button type="button" onClick={confirmReceived} disabled={confirm.busy || appeal.busy} data-testid="c2c-order-confirm">
            {t('admin.c2c.order.confirm')}
          </button>
          <button type="button" className="secondary" onClick={() => setAppealing(true)} disabled={confirm.busy || appeal.busy} data-testid="c2c-order-appeal">
            {t('admin.c2c.order.appeal')}
          </button>
        </div>
      ) : (
        <form onSubmit={sendAppeal} noValidate data-testid="c2c-appeal-form">
          <label>
            {t('admin.c2c.appeal.reason')}
            <textarea
              maxLength={500}
              required
              dir="auto"
              aria-describedby={`c2c-appeal-${order.id}-error`}
              data-testid="c2c-appeal-reason"
              {...form.register('reason')}
            />
          </label>
          <FieldErrorText error={form.formState.errors.reason} id={`c2c-appeal-${order.id}-error`} />
          <p className="muted">{t('admin.c2c.appeal.note')}</p>
          <div className="row start">
            <button type="submit" className="danger" disabled={appeal.busy} data-testid="c2c-appeal-submit">
              {t('admin.c2c.appeal.submit')}
            </button>
            <button type="button" className="secondary" onClick={() => setAppealing(false)} disabled={appeal.busy} data-testid="c2c-appeal-cancel">
              {t('admin.common.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/**
 * An accepted withdrawal: the user's bank details, and "fiat sent" with the bank's transaction
 * number as proof (checked by the contract's rule: 4 to 100 characters). Nothing moves then: the
 * user confirms the fiat arrived (the held USDT then comes to the float) or appeals.
 */
function SendFiat({ order, onStep }: { order: MerchantRequest; onStep: (notice: Notice) => void }) {
  const { t } = useI18n();
  const paid = useMoneyAction(markC2cFiatSentContract, stepChanges);
  const form = useContractForm(paidBody, {
    defaultValues: { paymentReference: '' },
    messages: { paymentReference: { too_small: fieldMessage('admin.c2c.paid.referenceTooShort') } },
  });
  const errorId = `c2c-reference-${order.id}-error`;
  useLiftedRefusal(paid.error, onStep);

  const submit = form.handleSubmit(async (body) => {
    const done = await paid.run({ params: { requestId: order.id }, body });
    if (done) onStep({ text: t('admin.c2c.order.fiatSent', { orderNo: done.orderNo }), testId: 'c2c-order-fiat-sent' });
  });

  return (
    <section className="decision" aria-label={t('admin.c2c.paid.title')} data-testid="c2c-order-send-fiat">
      <p className="notice">{t('admin.c2c.paid.pay', { fiat: order.fiat ?? '', currency: order.currency, user: order.user })}</p>
      <BankDetailsList request={order} />
      <form onSubmit={submit} noValidate data-testid="c2c-paid-form">
        <label>
          {t('admin.c2c.paid.reference')}
          <input
            maxLength={100}
            autoComplete="off"
            dir="ltr"
            required
            aria-describedby={`c2c-reference-${order.id}-hint ${errorId}`}
            aria-invalid={form.formState.errors.paymentReference ? true : undefined}
            data-testid="c2c-order-reference"
            {...form.register('paymentReference')}
          />
        </label>
        <p className="muted hint" id={`c2c-reference-${order.id}-hint`}>
          {t('admin.c2c.paid.referenceHint')}
        </p>
        <FieldErrorText error={form.formState.errors.paymentReference} id={errorId} />
        <StepRefusal error={paid.error} />
        <div className="row start">
          <button type="submit" disabled={paid.busy} data-testid="c2c-order-paid">
            {t('admin.c2c.paid.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
