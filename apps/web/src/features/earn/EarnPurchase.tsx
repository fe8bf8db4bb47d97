import { acknowledgeEarnTermsContract, ApiError, EARN_TERMS_VERSION, type EarnProduct, getEarnOverviewContract, subscribeEarnContract } from '@keel/contracts';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { useContractForm } from '../../shared/forms/index.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { Sheet } from '../options/Sheet.tsx';
import { type Refused, refusedBy } from '../wallet/WalletParts.tsx';
import { earnAssetScale, type PurchaseEstimate, purchaseEstimate, serverNow } from './earn-figures.ts';
import { earnProblems, type PurchaseLimits, purchaseFormSchema, subscribePasswordSchema } from './earn-form.ts';
import { describeEarnRefusal } from './earn-refusal.ts';
import { EarnFact, EarnRefusalNotice, PaymentPasswordField, PenaltyFormula, ProductFacts, TreasuryNote, useEarnText } from './EarnParts.tsx';
import { EarnSwitch } from './EarnProducts.tsx';
import { earnChanged, useEarnOverview } from './useEarn.ts';

/** The earn terms (version EARN_TERMS_VERSION of `web.earn.ack.*`): read and acknowledged once, before the first subscription. */
function AcknowledgementSheet({ onAccepted, onClose }: { onAccepted: () => void; onClose: () => void }) {
  const { t, tServer } = useI18n();
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const accept = useContractMutation(acknowledgeEarnTermsContract, { invalidates: [getEarnOverviewContract] });

  async function submit() {
    setError(null);
    try {
      await accept.mutateAsync({ body: { version: EARN_TERMS_VERSION } });
      onAccepted();
    } catch (caught) {
      if (isSessionError(caught)) return;
      setError(caught instanceof ApiError ? tServer(caught.message) : t('web.common.loadFailed'));
    }
  }

  return (
    <Sheet title={t('web.earn.ack.title')} onClose={onClose} testId="earn-ack">
      <div className="options-disclosure-text">
        <p>{t('web.earn.ack.principal')}</p>
        <p>{t('web.earn.ack.treasury')}</p>
        <p>{t('web.earn.ack.penalty')}</p>
        <p>{t('web.earn.ack.noFee')}</p>
        <p>{t('web.earn.ack.risk')}</p>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={checked} onChange={(event) => setChecked(event.target.checked)} data-testid="earn-ack-check" />
        <span>{t('web.earn.ack.check')}</span>
      </label>
      {error && (
        <Notice tone="error" testId="earn-ack-error">
          {error}
        </Notice>
      )}
      <Button block disabled={!checked} busy={accept.isPending} onClick={() => void submit()} data-testid="earn-ack-accept">
        {t('web.earn.ack.accept')}
      </Button>
    </Sheet>
  );
}

/** The figures of an amount before it is subscribed. */
function EstimateFacts({ product, amount, estimate, testPrefix }: { product: EarnProduct; amount: string | null; estimate: PurchaseEstimate | null; testPrefix: string }) {
  const { t } = useI18n();
  const text = useEarnText();
  const unit = product.asset;
  return (
    <dl className="facts earn-estimate">
      {amount !== null && (
        <EarnFact label={t('web.earn.amount')} testId={`${testPrefix}-amount`} value={amount}>
          <Amount value={amount} unit={unit} max={8} />
        </EarnFact>
      )}
      <EarnFact label={t('web.earn.dailyInterest')} testId={`${testPrefix}-daily`} value={estimate?.dailyInterest ?? ''}>
        {estimate ? <Amount value={estimate.dailyInterest} unit={unit} max={8} /> : '—'}
      </EarnFact>
      <div className="facts-strong">
        <dt>{t('web.earn.estimatedIncome', { count: product.cycleDays })}</dt>
        <dd data-testid={`${testPrefix}-income`} data-value={estimate?.estimatedIncome ?? ''}>
          {estimate ? <Amount value={estimate.estimatedIncome} unit={unit} max={8} /> : '—'}
        </dd>
      </div>
      <EarnFact label={t('web.earn.firstPayout')} testId={`${testPrefix}-first-payout`} value={estimate ? String(estimate.firstPayoutAtMs) : ''}>
        {estimate ? text.time(estimate.firstPayoutAtMs) : '—'}
      </EarnFact>
      <EarnFact label={t('web.earn.maturity')} testId={`${testPrefix}-maturity`} value={estimate ? String(estimate.maturesAtMs) : ''}>
        {estimate ? text.time(estimate.maturesAtMs) : '—'}
      </EarnFact>
      {product.earlyRedemption && (
        <EarnFact label={t('web.earn.maxPenalty')} testId={`${testPrefix}-max-penalty`} value={estimate?.maxPenalty ?? ''}>
          {estimate ? <Amount value={estimate.maxPenalty} unit={unit} max={8} /> : '—'}
        </EarnFact>
      )}
    </dl>
  );
}

function ConfirmSheet({
  product,
  amount,
  estimate,
  busy,
  refused,
  onConfirm,
  onEdit,
  onClose,
}: {
  product: EarnProduct;
  amount: string;
  estimate: PurchaseEstimate | null;
  busy: boolean;
  refused: Refused | null;
  onConfirm: (paymentPassword: string) => Promise<boolean>;
  onEdit: () => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const text = useEarnText();
  const errorText = useMoneyErrorText();
  const form = useContractForm(subscribePasswordSchema, { defaultValues: { paymentPassword: '' } });
  const format = { amount: text.amount, time: (value: string | number) => text.time(typeof value === 'number' ? value : Date.parse(value)) };
  const refusal = refused ? describeEarnRefusal(refused.message, refused.data, format, product.asset) : null;
  const submit = form.handleSubmit(async ({ paymentPassword }) => {
    if (!(await onConfirm(paymentPassword))) form.setValue('paymentPassword', '');
  });
  return (
    <Sheet title={t('web.earn.confirm.title')} onClose={onClose} testId="earn-confirm-sheet">
      <form className="earn-confirm" onSubmit={submit} noValidate>
        <p data-testid="earn-confirm-product">{product.name}</p>
        <EstimateFacts product={product} amount={amount} estimate={estimate} testPrefix="earn-confirm" />
        <p className="field-hint">
          {product.earlyRedemption
            ? t('web.earn.confirm.early', { rate: text.percent(product.penaltyRatePercent) })
            : t('web.earn.confirm.noEarly', { count: product.cycleDays })}
        </p>
        {refused && <EarnRefusalNotice message={refused.message} data={refused.data} asset={product.asset} testId="earn-confirm-error" />}
        <PaymentPasswordField
          register={form.register}
          setDigits={(digits) => form.setValue('paymentPassword', digits)}
          error={refusal?.field === 'paymentPassword' ? t('web.earn.passwordRefused') : errorText(form.formState.errors.paymentPassword, { required: t('web.earn.passwordRequired') })}
          testId="earn-confirm-password"
          onEdit={onEdit}
        />
        <div className="options-sheet-actions">
          <Button variant="secondary" onClick={onClose} disabled={busy} data-testid="earn-confirm-cancel">
            {t('web.options.confirm.cancel')}
          </Button>
          <Button type="submit" busy={busy} data-testid="earn-confirm">
            {t('web.earn.confirm.submit')}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}

type Step = { kind: 'ack' | 'confirm'; amount: string } | null;

/**
 * /Lockup/Purchase/{id}: the product's terms in words and numbers, the penalty formula worked
 * through with its own rate, who pays the yield; the amount against the coin balance and the
 * product's range, with the daily interest, the estimated income, the first payout and the maturity
 * computed live on the server's clock by the domain's functions; then the one-time acknowledgement,
 * a confirmation with the payment password, and the subscription (then /Lockup/subscribe).
 */
export function EarnPurchase({ productId }: { productId: string }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const overview = useEarnOverview(undefined);
  const data = overview.data;
  const product = data?.products.find((each) => each.id === productId) ?? null;
  const text = useEarnText();
  const errorText = useMoneyErrorText();
  const actionKey = useActionKey();
  const deviceNow = useNow(true, 30_000);
  const [step, setStep] = useState<Step>(null);
  const [acceptedHere, setAcceptedHere] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);
  const subscribe = useContractMutation(subscribeEarnContract, { invalidates: earnChanged });

  const available = product ? data?.balances.find((each) => each.asset === product.asset)?.available : undefined;
  const limits = useRef<PurchaseLimits>({ product: { asset: 'USDT', minAmount: '0', maxAmount: '0' }, available: undefined });
  if (product) limits.current = { product, available };
  const schema = useMemo(() => purchaseFormSchema(() => limits.current), []);
  const form = useContractForm(schema, { defaultValues: { amount: '' } });
  const typed = normaliseAmountInput(form.watch('amount'));
  const nowMs = data ? serverNow(data.serverTimeMs, overview.receivedAtMs, deviceNow) : deviceNow;
  const estimate = product ? purchaseEstimate(product, typed, nowMs) : null;
  const acknowledged = (data?.acknowledgement.acceptedAt ?? null) !== null || acceptedHere;

  if (overview.failed && !data) return <LoadFailedNotice onRetry={overview.reload} />;
  if (!data) return <p className="muted">{t('web.common.loading')}</p>;
  if (!product) {
    return (
      <Notice tone="warning" testId="earn-product-missing">
        <p>{t('web.earn.productMissing')}</p>
        <Link to="/Lockup">{t('web.earn.backToProducts')}</Link>
      </Notice>
    );
  }
  const shown = product;
  const scale = earnAssetScale(shown.asset);
  const amountError = errorText(form.formState.errors.amount, {
    required: t('web.earn.amountRequired'),
    asset: shown.asset,
    scale,
    own: { [earnProblems.outOfRange]: t('web.earn.outOfRange', { min: text.amount(shown.minAmount, shown.asset), max: text.amount(shown.maxAmount, shown.asset) }) },
  });

  const review = form.handleSubmit(({ amount }) => {
    setRefused(null);
    setStep({ kind: acknowledged ? 'confirm' : 'ack', amount });
  });

  async function confirm(amount: string, paymentPassword: string): Promise<boolean> {
    setRefused(null);
    const body = { productId: shown.id, amount, paymentPassword, termsVersion: shown.termsVersion };
    // The key is the action's, not the password's: a retry with the password typed again is the same subscription.
    const keyInput = JSON.stringify({ productId: shown.id, amount, termsVersion: shown.termsVersion });
    try {
      const subscription = await subscribe.mutateAsync({ body, idempotencyKey: actionKey.keyFor(keyInput) });
      actionKey.settle();
      navigate('/Lockup/subscribe', { state: { subscribed: subscription.subscriptionNo } });
      return true;
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return true;
      const answer = refusedBy(error);
      const refusal = describeEarnRefusal(answer.message, answer.data, { amount: text.amount, time: (value) => String(value) }, shown.asset);
      if (refusal.reloadTerms) {
        overview.reload();
        setAcceptedHere(false);
        setStep(null);
        setRefused(answer);
        return false;
      }
      if (refusal.field === 'amount') {
        overview.reload();
        setStep(null);
      }
      setRefused(answer);
      return false;
    }
  }

  return (
    <>
      <EarnSwitch current={shown.kind} />
      <Card className="earn-terms">
        <h2 className="card-title" data-testid="earn-purchase-name">
          {shown.name}
        </h2>
        <p data-testid="earn-terms-words">
          {t('web.earn.terms.words', {
            asset: shown.asset,
            days: shown.cycleDays,
            rate: text.percent(shown.dailyRatePercent),
            time: shown.payoutTimeUtc,
          })}
        </p>
        <ProductFacts product={shown} testPrefix="earn-purchase" />
        <h3 className="earn-subtitle">{t('web.earn.terms.penaltyTitle')}</h3>
        <PenaltyFormula product={shown} />
        <h3 className="earn-subtitle">{t('web.earn.treasury.title')}</h3>
        <TreasuryNote asset={shown.asset} treasury={data.treasuries.find((each) => each.asset === shown.asset)} />
      </Card>

      <Card className="earn-purchase-form">
        <form className="options-form" onSubmit={(event: FormEvent) => event.preventDefault()} noValidate aria-label={t('web.earn.purchase.form')}>
          {!shown.open && (
            <Notice tone="warning" testId="earn-purchase-closed">
              {t('web.earn.closed')}
            </Notice>
          )}
          <div className="amount-field">
            <TextField
              label={t('web.earn.amountLabel', { asset: shown.asset })}
              inputMode="decimal"
              autoComplete="off"
              placeholder={t('web.earn.amountPlaceholder', { min: text.amount(shown.minAmount, shown.asset), max: text.amount(shown.maxAmount, shown.asset) })}
              maxLength={40}
              data-testid="earn-amount"
              {...form.register('amount', { onChange: () => setRefused(null) })}
              error={amountError}
            />
            <div className="amount-meta">
              <span className="muted">
                {t('web.earn.available')} <Amount value={available ?? '0'} unit={shown.asset} max={8} testId="earn-available" />
              </span>
              <Link to="/assets/recharge" className="btn btn-ghost btn-small" data-testid="earn-deposit">
                {t('web.wallet.deposit')}
              </Link>
            </div>
          </div>
          <EstimateFacts product={shown} amount={null} estimate={estimate} testPrefix="earn-estimate" />
          <p className="field-hint">{t('web.earn.estimateNote')}</p>
          {refused && step === null && <EarnRefusalNotice message={refused.message} data={refused.data} asset={shown.asset} testId="earn-purchase-error" />}
          <Button block onClick={() => void review()} disabled={!shown.open} data-testid="earn-review">
            {t('web.earn.review')}
          </Button>
        </form>
      </Card>

      {step?.kind === 'ack' && (
        <AcknowledgementSheet
          onClose={() => setStep(null)}
          onAccepted={() => {
            setAcceptedHere(true);
            setStep({ kind: 'confirm', amount: step.amount });
          }}
        />
      )}
      {step?.kind === 'confirm' && (
        <ConfirmSheet
          product={shown}
          amount={step.amount}
          estimate={purchaseEstimate(shown, step.amount, nowMs)}
          busy={subscribe.isPending || subscribe.isSuccess}
          refused={refused}
          onEdit={() => setRefused(null)}
          onClose={() => {
            if (!subscribe.isPending) setStep(null);
          }}
          onConfirm={(paymentPassword) => confirm(step.amount, paymentPassword)}
        />
      )}
    </>
  );
}
