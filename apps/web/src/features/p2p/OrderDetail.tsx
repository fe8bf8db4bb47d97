import {
  appealP2pOrderContract,
  errorCatalogue,
  paymentPasswordSchema,
  releaseP2pOrderContract,
  securityOverviewContract,
  validationMessages,
} from '@keel/contracts';
import { type ChangeEvent, useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { z } from 'zod';
import { useContractQuery } from '../../shared/api/queries.ts';
import { bodySchema, useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Card, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { useCountdown } from '../auth/useCountdown.ts';
import { Fact, Time, useRefusalFormat } from '../wallet/WalletParts.tsx';
import { appealOpensAtMs, isOrderInProgress, orderActions, orderContacts, orderPath, type P2pOrder, type P2pRole } from './order-rules.ts';
import { OrderChat } from './OrderChat.tsx';
import { describeP2pRefusal } from './p2p-refusal.ts';
import {
  BuyerPaymentActions,
  EscrowNotice,
  FiatAmount,
  OrderStatusBadge,
  OrderStatusMessage,
  P2pRefusalNotice,
  PaymentCountdown,
  ShopLinks,
  TextAreaField,
  UsdtAmount,
} from './P2pParts.tsx';
import { useOrderPage } from './useOrderPage.ts';
import type { useOrderStep } from './useOrderStep.ts';

const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, 6);
const REASON_MAX = 500;

/** Order number, state, the spec's message for it, and the time left to pay. */
export function OrderHead({ order, now }: { order: P2pOrder; now: number }) {
  const { tRich } = useI18n();
  return (
    <Card className="p2p-order-head">
      <div className="wallet-row-head">
        <h2 className="card-title">
          {tRich('web.p2p.order.number', {
            orderNo: (
              <bdi key="no" dir="ltr" className="mono" data-testid="order-no">
                {order.orderNo}
              </bdi>
            ),
          })}
        </h2>
        <OrderStatusBadge status={order.status} testId="order-status" />
      </div>
      <OrderStatusMessage order={order} />
      <PaymentCountdown order={order} now={now} />
    </Card>
  );
}

/** Every fact of an order, the same for both sides. */
export function OrderFacts({ order }: { order: P2pOrder }) {
  const { t } = useI18n();
  return (
    <Card>
      <dl className="facts" data-testid="order-facts">
        <Fact label={t('web.p2p.order.role')} testId="order-role">
          {order.role === 'buyer' ? t('web.p2p.role.buyer') : t('web.p2p.role.seller')}
        </Fact>
        <Fact label={t('web.p2p.order.seller')} testId="order-seller">
          {order.sellerName}
        </Fact>
        <Fact label={t('web.p2p.order.buyer')} testId="order-buyer">
          {order.buyerName}
        </Fact>
        <Fact label={t('web.p2p.order.quantity')}>
          <UsdtAmount value={order.quantity} testId="order-quantity" />
        </Fact>
        <Fact label={t('web.p2p.order.price')}>
          <FiatAmount value={order.price} fiat={order.fiat} testId="order-price" />
        </Fact>
        <Fact label={t('web.p2p.order.total')}>
          <FiatAmount value={order.total} fiat={order.fiat} testId="order-total" />
        </Fact>
        <Fact label={t('web.p2p.order.fee')}>
          <UsdtAmount value={order.fee} testId="order-fee" />
        </Fact>
        <Fact label={t('web.p2p.order.receives')}>
          <UsdtAmount value={order.buyerReceives} testId="order-receives" />
        </Fact>
        <Fact label={t('web.p2p.order.createdAt')}>
          <Time iso={order.createdAt} testId="order-created" />
        </Fact>
        {order.paidAt && (
          <Fact label={t('web.p2p.order.paidAt')}>
            <Time iso={order.paidAt} testId="order-paid-at" />
          </Fact>
        )}
        {order.endedAt && (
          <Fact label={t('web.p2p.order.endedAt')}>
            <Time iso={order.endedAt} testId="order-ended-at" />
          </Fact>
        )}
        {order.closingEntryId && (
          <Fact label={t('web.p2p.order.entry')} testId="order-entry">
            {t('web.records.entry', { id: order.closingEntryId })}
          </Fact>
        )}
      </dl>
      <p className="field-hint">{t('web.p2p.order.feeNote')}</p>
      {order.remark && (
        <div className="address-block">
          <p className="muted">{t('web.p2p.order.remark')}</p>
          <p className="p2p-remark" data-testid="order-remark">
            {order.remark}
          </p>
        </div>
      )}
      {orderContacts(order).map((contact) => (
        <div className="address-block" key={contact.testId}>
          <p className="muted">{t(contact.label)}</p>
          <p className="p2p-contact" data-testid={contact.testId}>
            {contact.value}
          </p>
        </div>
      ))}
    </Card>
  );
}

/** What the release form says when "I received the money" is left unticked (a rule of the screen, not the API). */
const RECEIVED_REQUIRED = 'p2p:receivedRequired';

/**
 * The release's body with the payment password as the contracts define it (six digits), and the
 * confirmation that the money arrived, which only the screen asks for.
 */
const releaseSchema = bodySchema(releaseP2pOrderContract).safeExtend({
  paymentPassword: paymentPasswordSchema,
  received: z.boolean().refine((value) => value, { message: RECEIVED_REQUIRED }),
});

/** The seller's release: "I received the money" and the payment password. */
function ReleaseForm({ order, step }: { order: P2pOrder; step: ReturnType<typeof useOrderStep> }) {
  const { t, tRich, tServer } = useI18n();
  const form = useContractForm(releaseSchema, { defaultValues: { paymentPassword: '', received: false } });
  const errorText = useMoneyErrorText();
  const wait = useCountdown();
  const security = useContractQuery(securityOverviewContract);
  const format = useRefusalFormat();
  const refusal = step.refused ? describeP2pRefusal(step.refused.message, step.refused.data, format) : null;
  const { errors } = form.formState;

  const submit = form.handleSubmit(async ({ paymentPassword }) => {
    if (wait.seconds > 0) return;
    const done = await step.run({ kind: 'release', paymentPassword });
    if (!done) {
      form.setValue('paymentPassword', '');
      // Wrong tries left and the lock (ADR 0018) as they are now.
      void security.refetch();
    }
  });

  // A "too many attempts" answer closes the form for the seconds it names.
  const retry = refusal?.retryAfterSeconds;
  const startWait = wait.start;
  useEffect(() => {
    if (retry !== undefined) startWait(retry * 1000);
  }, [retry, startWait]);

  const lockedUntil = security.data?.paymentPasswordLock.lockedUntil ?? null;
  // A wrong or locked payment password says how many tries are left, or until when it is locked.
  const passwordError =
    refusal?.errorKey === 'WRONG_PAYMENT_PASSWORD' || refusal?.errorKey === 'PAYMENT_PASSWORD_LOCKED'
      ? [tServer(errorCatalogue[refusal.errorKey].msg), ...refusal.details.map((detail) => t(detail.key, detail.vars))].join(' — ')
      : errorText(errors.paymentPassword, { required: t('web.p2p.release.passwordRequired') });

  return (
    <form className="p2p-release" onSubmit={submit} noValidate data-testid="release-form">
      <p>{t('web.p2p.release.intro')}</p>
      {security.data && !security.data.paymentPasswordSet && (
        <Notice tone="warning" title={tServer(errorCatalogue.PAYMENT_PASSWORD_NOT_SET.msg)} testId="release-no-paypassword">
          <p>{t('web.p2p.refusal.noPaymentPassword')}</p>
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small" data-testid="release-set-paypassword">
            {t('web.p2p.refusal.paymentPasswordLink')}
          </Link>
        </Notice>
      )}
      {lockedUntil && (
        <Notice tone="warning" title={tServer(errorCatalogue.PAYMENT_PASSWORD_LOCKED.msg)} testId="release-paypassword-locked">
          <p>{t('web.paymentPassword.lockedUntil', { time: format.time(lockedUntil) })}</p>
        </Notice>
      )}
      <div className="checkbox-field">
        <label className="checkbox">
          <input type="checkbox" aria-invalid={errors.received ? true : undefined} {...form.register('received')} data-testid="release-received" />
          <span>{tRich('web.p2p.release.received', { amount: <FiatAmount key="amount" value={order.total} fiat={order.fiat} /> })}</span>
        </label>
      </div>
      {errors.received && (
        <p className="field-error" role="alert" data-testid="release-received-required">
          {errorText(errors.received, { own: { [RECEIVED_REQUIRED]: t('web.p2p.release.receivedRequired') } })}
        </p>
      )}
      <TextField
        label={t('web.p2p.release.password')}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={6}
        hint={t('web.settings.sixDigitsHint')}
        data-testid="release-password"
        {...form.register('paymentPassword', {
          onChange: (event: ChangeEvent<HTMLInputElement>) => {
            // Digits only, as typed: the password is six of them.
            const digits = digitsOnly(event.target.value);
            if (digits !== event.target.value) form.setValue('paymentPassword', digits);
            step.clearRefused();
          },
        })}
        error={passwordError}
      />
      {wait.seconds > 0 && (
        <p className="field-hint warning-text" data-testid="release-wait">
          {t('web.p2p.refusal.retry', { seconds: wait.seconds })}
        </p>
      )}
      <Button type="submit" block busy={step.busy === 'release'} disabled={wait.seconds > 0} data-testid="release-submit">
        {t('web.p2p.release.submit')}
      </Button>
      <p className="field-hint">{t('web.p2p.release.warning')}</p>
    </form>
  );
}

const appealSchema = bodySchema(appealP2pOrderContract);

/** Either side's appeal of a paid order: a reason, then support staff decide; the escrow stays frozen. */
function AppealForm({ order, step }: { order: P2pOrder; step: ReturnType<typeof useOrderStep> }) {
  const { t, tRich } = useI18n();
  const [open, setOpen] = useState(false);
  const form = useContractForm(appealSchema, { defaultValues: { reason: '' } });
  const errorText = useMoneyErrorText();
  const opensAt = appealOpensAtMs(order);
  const refusal = step.refused ? describeP2pRefusal(step.refused.message, step.refused.data, { amount: (value) => value, time: (value) => value }) : null;
  // The contract's rule (at least 5 characters after trimming), in the screen's words.
  const reasonShort = t('web.p2p.refusal.reasonShort');
  const reasonError =
    errorText(form.formState.errors.reason, { required: reasonShort, own: { [validationMessages.appealReason]: reasonShort } }) ??
    (refusal?.field === 'reason' ? reasonShort : undefined);

  const submit = form.handleSubmit(async ({ reason }) => {
    if (await step.run({ kind: 'appeal', reason })) setOpen(false);
  });

  return (
    <div className="p2p-appeal" data-testid="appeal-section">
      {opensAt !== null && (
        <p className="field-hint" data-testid="appeal-opens" data-opens-at={new Date(opensAt).toISOString()}>
          {tRich('web.p2p.appeal.opensAt', { time: <Time key="time" iso={new Date(opensAt).toISOString()} /> })}
        </p>
      )}
      {!open ? (
        <Button variant="secondary" className="btn-small" onClick={() => setOpen(true)} data-testid="order-appeal">
          {t('web.p2p.appeal.open')}
        </Button>
      ) : (
        <form onSubmit={submit} noValidate data-testid="appeal-form" className="p2p-appeal-form">
          <p className="field-hint">{t('web.p2p.appeal.intro')}</p>
          <TextAreaField
            label={t('web.p2p.appeal.reason')}
            maxLength={REASON_MAX}
            rows={4}
            testId="appeal-reason"
            {...form.register('reason', { onChange: () => step.clearRefused() })}
            error={reasonError}
          />
          <div className="wallet-row-actions">
            <Button type="submit" variant="danger" className="btn-small" busy={step.busy === 'appeal'} data-testid="appeal-submit">
              {t('web.p2p.appeal.submit')}
            </Button>
            <Button variant="ghost" className="btn-small" onClick={() => setOpen(false)} data-testid="appeal-cancel">
              {t('web.p2p.appeal.keep')}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

/** What this side can do with the order now. */
function OrderActionsCard({ order, now, step }: { order: P2pOrder; now: number; step: ReturnType<typeof useOrderStep> }) {
  const { t } = useI18n();
  const actions = orderActions(order, now);
  const any = actions.markPaid || actions.cancel || actions.release || actions.appeal;
  if (!any && order.status !== 'appealing') return null;
  return (
    <Card className="p2p-actions">
      <h2 className="card-title">{t('web.p2p.order.actions')}</h2>
      {order.role === 'buyer' && order.status === 'awaiting_payment' && (
        <Link to={`/trade/shopping/trading/buy_pay/${order.id}`} className="btn btn-secondary btn-block" data-testid="order-to-pay">
          {t('web.p2p.pay.instructions')}
        </Link>
      )}
      {(actions.markPaid || actions.cancel) && (
        <div className="wallet-row-actions">
          <BuyerPaymentActions order={order} actions={actions} step={step} testIds={{ markPaid: 'order-mark-paid', cancel: 'order-cancel' }} />
        </div>
      )}
      {actions.cancel && <p className="field-hint">{t('web.p2p.order.cancelNote')}</p>}
      {actions.release && <ReleaseForm order={order} step={step} />}
      {actions.appeal && <AppealForm order={order} step={step} />}
      {order.status === 'appealing' && (
        <Notice tone="warning" title={t('web.p2p.appeal.underWay')} testId="appeal-open">
          {t('web.p2p.appeal.underWayBody')}
        </Notice>
      )}
    </Card>
  );
}

/**
 * /trade/shopping/trading/buy_detail/{id} (`buyer`) and …/sell_detail/{id} (`seller`): one order,
 * its facts, what this side may do now, and the chat. The other side's page of the order sends the
 * user to their own.
 */
export function OrderDetail({ id, side }: { id: string; side: P2pRole }) {
  const { t } = useI18n();
  const { order, problem, reload, now, step } = useOrderPage(id);

  if (problem === 'notFound') {
    return (
      <Notice tone="error" testId="order-not-found">
        {t('web.p2p.order.notFound')}
      </Notice>
    );
  }
  if (order === null) return problem === 'failed' ? <LoadFailedNotice onRetry={reload} /> : <p className="muted">{t('web.common.loading')}</p>;
  if (order.role !== side) return <Navigate to={orderPath(order)} replace />;
  const counterparty = order.role === 'buyer' ? order.sellerName : order.buyerName;
  return (
    <div className="p2p-order" data-testid="order-detail" data-order-id={order.id} data-status={order.status} data-role={order.role}>
      {problem === 'failed' && <LoadFailedNotice onRetry={reload} />}
      <OrderHead order={order} now={now} />
      {step.refused && <P2pRefusalNotice refused={step.refused} testId="order-error" />}
      <OrderActionsCard order={order} now={now} step={step} />
      <OrderFacts order={order} />
      {isOrderInProgress(order.status) && <EscrowNotice />}
      <OrderChat orderId={order.id} counterparty={counterparty} embedded />
      <ShopLinks />
    </div>
  );
}
