import { appealC2cRequestContract, confirmC2cReceivedContract, errorCatalogue, errorKeyFromMsg, paymentPasswordSchema, securityOverviewContract } from '@keel/contracts';
import { type BankDetails, bankDetailFields, type C2cKind, isC2cCountry } from '@keel/domain';
import type { MessageKey } from '@keel/locales';
import { type ChangeEvent, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { z } from 'zod';
import { useContractQuery } from '../../shared/api/queries.ts';
import { bodySchema, useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Card, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { TextAreaField } from '../p2p/P2pParts.tsx';
import { PhotoPicker } from '../verification/PhotoPicker.tsx';
import { ConfirmAction, Fact, MonoText, Time } from '../wallet/WalletParts.tsx';
import { type C2cRequest, c2cActions, c2cFigures, c2cOrderPath, clockText, isOpen, usesIban } from './c2c-figures.ts';
import { C2cCountdown, C2cRefusalNotice, C2cStateBadge, C2cStatusMessage, FiatAmount, PriceText, UsdtAmount, useCountryName } from './C2cParts.tsx';
import { useC2cRequest, useC2cStep } from './useC2c.ts';

type Step = ReturnType<typeof useC2cStep>;
const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, 6);
const REASON_MAX = 500;
const isoOf = (ms: number) => new Date(ms).toISOString();

/** Order number, the spec's state, what it means now, and the deadline that runs. */
function OrderHead({ request, now }: { request: C2cRequest; now: number }) {
  const { tRich } = useI18n();
  return (
    <Card className="c2c-order-head">
      <div className="wallet-row-head">
        <h2 className="card-title">
          {tRich('web.c2c.order.number', {
            orderNo: (
              <bdi key="no" dir="ltr" className="mono" data-testid="c2c-order-no">
                {request.orderNo}
              </bdi>
            ),
          })}
        </h2>
        <C2cStateBadge status={request.status} testId="c2c-order-status" />
      </div>
      <C2cStatusMessage request={request} />
      <C2cCountdown request={request} now={now} />
    </Card>
  );
}

/** Every fact of the order. Before a merchant accepts, the fiat is the estimate at the price shown. */
function OrderFacts({ request }: { request: C2cRequest }) {
  const { t } = useI18n();
  const countryName = useCountryName();
  const estimate = request.fiat === null ? c2cFigures(request.kind, 'usdt', request.usdt, request.quotedPrice) : null;
  const deposit = request.kind === 'deposit';
  return (
    <Card>
      <dl className="facts" data-testid="c2c-order-facts">
        <Fact label={t('web.c2c.country.label')} testId="c2c-order-country">
          {t('web.c2c.country.option', { country: countryName(request.country), currency: request.currency })}
        </Fact>
        <Fact label={deposit ? t('web.c2c.order.usdtDeposit') : t('web.c2c.order.usdtWithdrawal')}>
          <UsdtAmount value={request.usdt} testId="c2c-order-usdt" />
        </Fact>
        {request.price !== null ? (
          <Fact label={t('web.c2c.order.price')}>
            <PriceText value={request.price} currency={request.currency} testId="c2c-order-price" />
          </Fact>
        ) : (
          <Fact label={t('web.c2c.order.quotedPrice')}>
            <PriceText value={request.quotedPrice} currency={request.currency} testId="c2c-order-quoted-price" />
          </Fact>
        )}
        {request.fiat !== null ? (
          <Fact label={deposit ? t('web.c2c.order.fiatToPay') : t('web.c2c.order.fiatToReceive')}>
            <FiatAmount value={request.fiat} currency={request.currency} testId="c2c-order-fiat" />
          </Fact>
        ) : (
          estimate && (
            <Fact label={t('web.c2c.order.fiatEstimate')}>
              <FiatAmount value={estimate.fiat} currency={request.currency} testId="c2c-order-fiat-estimate" />
            </Fact>
          )
        )}
        {request.merchant && (
          <Fact label={t('web.c2c.order.merchant')} testId="c2c-order-merchant">
            <bdi>{request.merchant.name}</bdi>
          </Fact>
        )}
        {request.paymentReference && (
          <Fact label={t('web.c2c.order.paymentReference')}>
            <MonoText value={request.paymentReference} testId="c2c-order-reference" />
          </Fact>
        )}
        {request.proofUploadId && (
          <Fact label={t('web.c2c.order.screenshot')} testId="c2c-order-proof">
            {t('web.c2c.order.screenshotSent')}
          </Fact>
        )}
        <Fact label={t('web.c2c.order.createdAt')}>
          <Time iso={isoOf(request.createdAtMs)} testId="c2c-order-created" />
        </Fact>
        {request.paidAtMs !== null && (
          <Fact label={deposit ? t('web.c2c.order.paidAtDeposit') : t('web.c2c.order.paidAtWithdrawal')}>
            <Time iso={isoOf(request.paidAtMs)} testId="c2c-order-paid-at" />
          </Fact>
        )}
        {request.endedAtMs !== null && (
          <Fact label={t('web.c2c.order.endedAt')}>
            <Time iso={isoOf(request.endedAtMs)} testId="c2c-order-ended-at" />
          </Fact>
        )}
        {request.closingEntryId && (
          <Fact label={t('web.c2c.order.entry')}>
            <Link to="/assets/records?account=fiat" data-testid="c2c-order-entry" data-entry={request.closingEntryId}>
              {t('web.records.entry', { id: request.closingEntryId })}
            </Link>
          </Fact>
        )}
      </dl>
      {request.status === 'succeeded' && (
        <p className="field-hint" data-testid="c2c-order-account-note">
          {deposit ? t('web.c2c.order.landedInFiat') : t('web.c2c.order.paidFromFiat')}
        </p>
      )}
    </Card>
  );
}

const bankLabelKeys: Record<keyof BankDetails, MessageKey> = {
  payeeName: 'web.c2c.bank.payeeName',
  cardNumber: 'web.c2c.bank.cardNumber',
  routingNumber: 'web.c2c.bank.routingNumber',
  branchNumber: 'web.c2c.bank.branchNumber',
  bankName: 'web.c2c.bank.bankName',
  accountName: 'web.c2c.bank.accountName',
  accountNumber: 'web.c2c.bank.accountNumber',
  bankCode: 'web.c2c.bank.bankCode',
  swiftCode: 'web.c2c.bank.swiftCode',
  bankAddress: 'web.c2c.bank.bankAddress',
  branchCode: 'web.c2c.bank.branchCode',
  remarks: 'web.c2c.bank.remarks',
};

/** The label of a bank detail field; the account number is the IBAN where the country uses one. */
export function bankLabelKey(field: keyof BankDetails, country: string): MessageKey {
  if (field === 'accountNumber' && isC2cCountry(country) && usesIban(country)) return 'web.c2c.bank.iban';
  return bankLabelKeys[field];
}

/** A withdrawal's bank details as given (only the fields filled in). */
function BankDetailsCard({ request }: { request: C2cRequest }) {
  const { t } = useI18n();
  const details = request.bankDetails;
  if (!details) return null;
  const coded: ReadonlySet<keyof BankDetails> = new Set(['cardNumber', 'routingNumber', 'accountNumber', 'swiftCode', 'bankCode', 'branchCode', 'branchNumber']);
  return (
    <Card>
      <h2 className="card-title">{t('web.c2c.bank.title')}</h2>
      <dl className="facts" data-testid="c2c-order-bank">
        {bankDetailFields
          .filter((field) => (details[field] ?? '').trim() !== '')
          .map((field) => (
            <Fact key={field} label={t(bankLabelKey(field, request.country))} testId={`c2c-order-bank-${field}`}>
              {coded.has(field) ? <MonoText value={details[field]} /> : <bdi className="c2c-text">{details[field]}</bdi>}
            </Fact>
          ))}
      </dl>
    </Card>
  );
}

/** A deposit once a merchant accepted: where to pay, how much, and the warning against paying anything else. */
function PaymentDetailsCard({ request }: { request: C2cRequest }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const details = request.paymentDetails ?? '';
  async function copy() {
    try {
      await navigator.clipboard.writeText(details);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <Card className="c2c-pay">
      <h2 className="card-title">{t('web.c2c.pay.title')}</h2>
      <dl className="facts facts-strong">
        {request.merchant && (
          <Fact label={t('web.c2c.order.merchant')} testId="c2c-pay-merchant">
            <bdi>{request.merchant.name}</bdi>
          </Fact>
        )}
        {request.fiat !== null && (
          <Fact label={t('web.c2c.order.fiatToPay')}>
            <FiatAmount value={request.fiat} currency={request.currency} testId="c2c-pay-fiat" />
          </Fact>
        )}
      </dl>
      <div className="address-block">
        <p className="muted">{t('web.c2c.pay.details')}</p>
        <p className="c2c-payment-details" data-testid="c2c-payment-details">
          {details}
        </p>
        <div className="wallet-row-actions">
          <Button variant="secondary" className="btn-small" onClick={() => void copy()} data-testid="c2c-payment-details-copy">
            {t('web.deposit.copy')}
          </Button>
        </div>
        <p className={copied === 'failed' ? 'field-error' : 'field-hint'} role="status">
          {copied === 'yes' ? t('web.deposit.copied') : copied === 'failed' ? t('web.deposit.copyFailed') : '\u00a0'}
        </p>
      </div>
      <Notice tone="warning" title={t('web.c2c.pay.warningTitle')} testId="c2c-pay-warning">
        <p>{t('web.c2c.pay.warningBody')}</p>
      </Notice>
    </Card>
  );
}

/** A deposit's user: the transaction screenshot (uploaded at once, purpose c2c_proof), then "I have paid". */
function MarkPaidCard({ request, step }: { request: C2cRequest; step: Step }) {
  const { t } = useI18n();
  const [uploadId, setUploadId] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  return (
    <Card className="c2c-mark-paid">
      <h2 className="card-title">{t('web.c2c.markPaid.title')}</h2>
      <p className="muted">{t('web.c2c.markPaid.intro')}</p>
      <PhotoPicker label={t('web.c2c.markPaid.screenshot')} name="c2c-proof" purpose="c2c_proof" onUploading={setUploading} onChange={(value) => setUploadId(value?.uploadId ?? null)} />
      {!uploadId && <p className="field-hint">{t('web.c2c.markPaid.needScreenshot')}</p>}
      <div className="wallet-row-actions">
        {uploadId && !uploading ? (
          <ConfirmAction
            label={t('web.c2c.markPaid.submit')}
            question={t('web.c2c.markPaid.question', { fiat: `\u2066${request.fiat ?? ''} ${request.currency}\u2069` })}
            confirmLabel={t('web.c2c.markPaid.confirm')}
            variant="secondary"
            busy={step.busy === 'markPaid'}
            onConfirm={() => void step.run({ kind: 'markPaid', uploadId })}
            testId="c2c-mark-paid"
          />
        ) : (
          <Button variant="secondary" className="btn-small" disabled data-testid="c2c-mark-paid">
            {t('web.c2c.markPaid.submit')}
          </Button>
        )}
      </div>
    </Card>
  );
}

const RECEIVED_REQUIRED = 'c2c:receivedRequired';
const confirmSchema = bodySchema(confirmC2cReceivedContract).safeExtend({
  paymentPassword: paymentPasswordSchema,
  received: z.boolean().refine((value) => value, { message: RECEIVED_REQUIRED }),
});

/** A paid withdrawal: the merchant's reference, the deadline to answer, and "I received the money" with the payment password. */
function ConfirmReceivedCard({ request, step }: { request: C2cRequest; step: Step }) {
  const { t, tRich, tServer } = useI18n();
  const form = useContractForm(confirmSchema, { defaultValues: { paymentPassword: '', received: false } });
  const errorText = useMoneyErrorText();
  const security = useContractQuery(securityOverviewContract);
  const { errors } = form.formState;
  const refusedKey = step.refused?.step === 'confirm' ? errorKeyFromMsg(step.refused.message) : undefined;
  const passwordError =
    refusedKey === 'WRONG_PAYMENT_PASSWORD' || refusedKey === 'PAYMENT_PASSWORD_LOCKED'
      ? tServer(errorCatalogue[refusedKey].msg)
      : errorText(errors.paymentPassword, { required: t('web.c2c.confirm.passwordRequired') });

  const submit = form.handleSubmit(async ({ paymentPassword }) => {
    const done = await step.run({ kind: 'confirm', paymentPassword });
    if (!done) {
      form.setValue('paymentPassword', '');
      void security.refetch();
    }
  });

  return (
    <Card className="c2c-confirm">
      <h2 className="card-title">{t('web.c2c.confirm.title')}</h2>
      {request.confirmDeadlineMs !== null && (
        <Notice tone="warning" title={t('web.c2c.confirm.deadlineTitle')} testId="c2c-confirm-deadline">
          <p data-deadline={isoOf(request.confirmDeadlineMs)}>{t('web.c2c.confirm.deadline', { time: `\u2066${clockText(request.confirmDeadlineMs)}\u2069` })}</p>
        </Notice>
      )}
      {security.data && !security.data.paymentPasswordSet && (
        <Notice tone="warning" title={tServer(errorCatalogue.PAYMENT_PASSWORD_NOT_SET.msg)} testId="c2c-confirm-no-paypassword">
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small">
            {t('web.withdraw.setPaymentPassword')}
          </Link>
        </Notice>
      )}
      <dl className="facts facts-strong">
        {request.fiat !== null && (
          <Fact label={t('web.c2c.order.fiatToReceive')}>
            <FiatAmount value={request.fiat} currency={request.currency} testId="c2c-confirm-fiat-due" />
          </Fact>
        )}
        {request.paymentReference && (
          <Fact label={t('web.c2c.order.paymentReference')}>
            <MonoText value={request.paymentReference} testId="c2c-confirm-reference" />
          </Fact>
        )}
      </dl>
      <form className="c2c-confirm-form" onSubmit={submit} noValidate data-testid="c2c-confirm-form">
        <p>{t('web.c2c.confirm.intro')}</p>
        <div className="checkbox-field">
          <label className="checkbox">
            <input type="checkbox" aria-invalid={errors.received ? true : undefined} {...form.register('received')} data-testid="c2c-confirm-received" />
            <span>
              {tRich('web.c2c.confirm.received', {
                amount: <FiatAmount key="amount" value={request.fiat ?? '0'} currency={request.currency} />,
              })}
            </span>
          </label>
        </div>
        {errors.received && (
          <p className="field-error" role="alert" data-testid="c2c-confirm-received-required">
            {errorText(errors.received, { own: { [RECEIVED_REQUIRED]: t('web.c2c.confirm.receivedRequired') } })}
          </p>
        )}
        <TextField
          label={t('web.withdraw.paymentPassword')}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          hint={t('web.settings.sixDigitsHint')}
          data-testid="c2c-confirm-password"
          {...form.register('paymentPassword', {
            onChange: (event: ChangeEvent<HTMLInputElement>) => {
              const digits = digitsOnly(event.target.value);
              if (digits !== event.target.value) form.setValue('paymentPassword', digits);
              step.clearRefused();
            },
          })}
          error={passwordError}
        />
        <Button type="submit" block busy={step.busy === 'confirm'} data-testid="c2c-confirm-submit">
          {t('web.c2c.confirm.submit')}
        </Button>
        <p className="field-hint">{t('web.c2c.confirm.warning')}</p>
      </form>
    </Card>
  );
}

const appealSchema = bodySchema(appealC2cRequestContract);

/** A paid order to support with a reason; whatever is held stays held until support decides. */
function AppealCard({ request, step }: { request: C2cRequest; step: Step }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const form = useContractForm(appealSchema, { defaultValues: { reason: '' } });
  const errorText = useMoneyErrorText();
  const reasonShort = t('web.c2c.appeal.reasonShort');
  const submit = form.handleSubmit(async ({ reason }) => {
    if (await step.run({ kind: 'appeal', reason })) setOpen(false);
  });
  return (
    <Card className="c2c-appeal">
      <h2 className="card-title">{t('web.c2c.appeal.title')}</h2>
      <p className="muted">{request.kind === 'deposit' ? t('web.c2c.appeal.introDeposit') : t('web.c2c.appeal.introWithdrawal')}</p>
      {!open ? (
        <div className="wallet-row-actions">
          <Button variant="secondary" className="btn-small" onClick={() => setOpen(true)} data-testid="c2c-appeal">
            {t('web.c2c.appeal.open')}
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate data-testid="c2c-appeal-form" className="c2c-appeal-form">
          <TextAreaField
            label={t('web.c2c.appeal.reason')}
            maxLength={REASON_MAX}
            rows={4}
            testId="c2c-appeal-reason"
            {...form.register('reason', { onChange: () => step.clearRefused() })}
            error={errorText(form.formState.errors.reason, { required: reasonShort })}
          />
          <div className="wallet-row-actions">
            <Button type="submit" variant="danger" className="btn-small" busy={step.busy === 'appeal'} data-testid="c2c-appeal-submit">
              {t('web.c2c.appeal.submit')}
            </Button>
            <Button variant="ghost" className="btn-small" onClick={() => setOpen(false)} data-testid="c2c-appeal-keep">
              {t('web.c2c.appeal.keep')}
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}

const appealByKeys = { user: 'web.c2c.appeal.byUser', merchant: 'web.c2c.appeal.byMerchant', system: 'web.c2c.appeal.bySystem' } as const satisfies Record<string, MessageKey>;

/** Who sent the order to support and why; support's decision once made. */
function SupportCard({ request }: { request: C2cRequest }) {
  const { t } = useI18n();
  if (!request.appeal && !request.resolution) return null;
  return (
    <Card className="c2c-support">
      {request.appeal && (
        <div className="address-block" data-testid="c2c-appeal-info" data-by={request.appeal.by}>
          <p className="muted">{t(appealByKeys[request.appeal.by])}</p>
          <p className="c2c-text" data-testid="c2c-appeal-info-reason">
            {request.appeal.reason}
          </p>
        </div>
      )}
      {request.resolution && (
        <div className="address-block" data-testid="c2c-resolution" data-outcome={request.resolution.outcome}>
          <p className="muted">{request.resolution.outcome === 'complete' ? t('web.c2c.resolution.complete') : t('web.c2c.resolution.fail')}</p>
          <p className="c2c-text" data-testid="c2c-resolution-note">
            {request.resolution.note}
          </p>
        </div>
      )}
    </Card>
  );
}

/**
 * One C2C order for its user: /assets/C2CDeposit/{id} (`deposit`) and /assets/C2CWithdrawalInfo/{id}
 * (`withdrawal`); the other kind's id goes to its own page. The state in the spec's words with what
 * it means and the deadline that runs, then the step the user has now — a deposit: the merchant's
 * payment details, the screenshot and "I have paid"; a paid withdrawal: the merchant's reference,
 * "I received the money" with the payment password before the published deadline (never released
 * on silence: support decides) — the appeal of a paid order, the facts (the closing entry linking
 * to the records) and the cancel while the machine allows it. Polled while open (`useC2cRequest`).
 */
export function C2cOrderView({ id, kind }: { id: string; kind: C2cKind }) {
  const { t } = useI18n();
  const { request, problem, reload, replace } = useC2cRequest(id);
  const now = useNow(request ? isOpen(request.status) : false, 1000);
  const step = useC2cStep({ requestId: id, onDone: replace, reload });

  if (problem === 'notFound') {
    return (
      <Notice tone="error" title={t('web.c2c.order.notFound')} testId="c2c-order-not-found">
        <Link to={kind === 'deposit' ? '/assets/rechargeLog?via=c2c' : '/assets/C2CWithdrawalList'}>{t('web.c2c.order.toHistory')}</Link>
      </Notice>
    );
  }
  if (!request) return problem === 'failed' ? <LoadFailedNotice onRetry={reload} /> : <p className="muted">{t('web.common.loading')}</p>;
  if (request.kind !== kind) return <Navigate to={c2cOrderPath(request)} replace />;

  const actions = c2cActions(request, now);
  const deposit = kind === 'deposit';
  const showPayment = deposit && request.merchant !== null && (request.status === 'awaiting_payment' || request.status === 'paid' || request.status === 'appealing');
  return (
    <div className="c2c-order" data-testid="c2c-order" data-status={request.status} data-kind={request.kind}>
      {problem === 'failed' && <LoadFailedNotice onRetry={reload} />}
      <OrderHead request={request} now={now} />
      {step.refused && <C2cRefusalNotice refused={step.refused} testId="c2c-step-refusal" />}
      {showPayment && <PaymentDetailsCard request={request} />}
      {actions.markPaid && <MarkPaidCard request={request} step={step} />}
      {actions.confirm && <ConfirmReceivedCard request={request} step={step} />}
      {actions.appeal && <AppealCard request={request} step={step} />}
      <SupportCard request={request} />
      <OrderFacts request={request} />
      {!deposit && <BankDetailsCard request={request} />}
      {actions.cancel && (
        <Card className="c2c-cancel">
          <p className="field-hint">{deposit ? t('web.c2c.cancel.noteDeposit') : t('web.c2c.cancel.noteWithdrawal')}</p>
          <div className="wallet-row-actions">
            <ConfirmAction
              label={t('web.c2c.cancel.label')}
              question={t('web.c2c.cancel.question')}
              confirmLabel={t('web.c2c.cancel.confirm')}
              busy={step.busy === 'cancel'}
              onConfirm={() => void step.run({ kind: 'cancel' })}
              testId="c2c-cancel"
            />
          </div>
        </Card>
      )}
      <nav className="wallet-links" aria-label={t('web.c2c.order.more')}>
        <Link to={deposit ? '/assets/rechargeLog?via=c2c' : '/assets/C2CWithdrawalList'} data-testid="c2c-to-history">
          {deposit ? t('web.c2c.history.depositTitle') : t('web.c2c.history.withdrawalTitle')}
        </Link>
        <Link to="/assets/records?account=fiat" data-testid="c2c-to-records">
          {t('web.records.title')}
        </Link>
      </nav>
    </div>
  );
}
