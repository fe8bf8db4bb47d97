import { type BodyOf, publishFundRequestContract } from '@keel/contracts';
import { type ComponentPropsWithRef, useId, useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { useContractForm } from '../../shared/forms/index.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { type Refused, refusedBy, useRefusalFormat } from '../wallet/WalletParts.tsx';
import { fundAssetScale, publishEstimate } from './fund-figures.ts';
import { fundProblems, type PublishContext, publishFormSchema } from './fund-form.ts';
import { describeFundRefusal } from './fund-refusal.ts';
import { borrowerTypeKeys, FundFact, FundPasswordSheet, FundPriceText, FundRefusalNotice, UsdtFact, useFundText } from './FundParts.tsx';
import { type FundOverviewData, fundChanged, useCreditScore } from './useFund.ts';

type Body = z.output<NonNullable<BodyOf<typeof publishFundRequestContract>>>;
const COLLATERAL = ['BTC', 'ETH', 'USDT'] as const;
type CollateralAsset = (typeof COLLATERAL)[number];

/** A labelled multi-line box with its error announced, as `TextField` is for one line. */
function TextAreaField({ label, error, hint, testId, ...rest }: Omit<ComponentPropsWithRef<'textarea'>, 'id'> & { label: string; error?: string; hint?: string; testId?: string }) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={error ? 'field fund-textarea has-error' : 'field fund-textarea'}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">
        <textarea id={id} rows={4} aria-invalid={error ? true : undefined} aria-describedby={describedBy} data-testid={testId} {...rest} />
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The publish form of /fund (advanced verification): borrower type, title, purpose, the amount,
 * daily rate, term, tranches and release period, window, collateral; live, by the domain's rules:
 * the interest (amount × daily rate × term), the total due, the release schedule, the collateral's
 * value at the latest recorded price and the credit limit (× the published LTV), and the two
 * ratings with their inputs; then the payment password and the publication with an Idempotency-Key.
 */
export function FundPublishForm({ overview, onPublished }: { overview: FundOverviewData; onPublished: (requestNo: string) => void }) {
  const { t } = useI18n();
  const text = useFundText();
  const errorText = useMoneyErrorText();
  const format = useRefusalFormat();
  const actionKey = useActionKey();
  const creditScore = useCreditScore(true);
  const { policy } = overview;
  const assets = COLLATERAL.filter((asset) => asset in policy.collateralLtvPercent);
  const context = useRef<PublishContext>({ policy, prices: overview.prices, balances: overview.balances });
  context.current = { policy, prices: overview.prices, balances: overview.balances };
  const schema = useMemo(() => publishFormSchema(() => context.current), []);
  const form = useContractForm(schema, {
    defaultValues: {
      borrowerType: 'individual',
      title: '',
      purpose: '',
      amount: '',
      dailyRatePercent: '',
      termDays: '',
      tranches: '1',
      releasePeriodDays: '0',
      windowHours: '',
      collateralAsset: assets[0] ?? 'USDT',
      collateralAmount: '',
    },
  });
  const [confirming, setConfirming] = useState<Body | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const publish = useContractMutation(publishFundRequestContract, { invalidates: fundChanged });

  const values = form.watch();
  const collateralAsset = values.collateralAsset as CollateralAsset;
  const estimate = publishEstimate(
    {
      amount: normaliseAmountInput(values.amount ?? ''),
      dailyRatePercent: normaliseAmountInput(values.dailyRatePercent ?? ''),
      termDays: values.termDays ?? '',
      tranches: values.tranches ?? '',
      releasePeriodDays: values.releasePeriodDays ?? '',
      windowHours: values.windowHours ?? '',
      collateralAsset,
      collateralAmount: normaliseAmountInput(values.collateralAmount ?? ''),
    },
    { policy, prices: overview.prices, creditScore },
  );
  const price = overview.prices.find((each) => each.asset === collateralAsset) ?? null;
  const available = overview.balances.find((each) => each.asset === collateralAsset)?.available ?? '0';
  const collateralScale = fundAssetScale(collateralAsset);

  const own: Record<string, string> = {
    [fundProblems.whole]: t('web.fund.problem.whole'),
    [fundProblems.amount]: t('web.fund.problem.amount', { min: text.amount(policy.minAmount, 'USDT'), max: text.amount(policy.maxAmount, 'USDT') }),
    [fundProblems.rate]: t('web.fund.problem.rate', { max: text.percent(policy.maxDailyRatePercent) }),
    [fundProblems.term]: t('web.fund.problem.term', { max: policy.maxTermDays }),
    [fundProblems.schedule]: t('web.fund.problem.schedule', { max: policy.maxTranches }),
    [fundProblems.window]: t('web.fund.problem.window', { min: policy.minWindowHours, max: policy.maxWindowHours }),
    [fundProblems.aboveLimit]: t('web.fund.problem.aboveLimit', { limit: text.amount(estimate.creditLimit ?? '0', 'USDT') }),
  };
  const errors = form.formState.errors;
  const words = (required: string) => ({ required, own, asset: 'USDT', scale: 6 });

  const proceed = form.handleSubmit((body) => {
    setRefused(null);
    setConfirming({
      borrowerType: body.borrowerType,
      title: body.title,
      purpose: body.purpose,
      amount: body.amount,
      dailyRatePercent: body.dailyRatePercent,
      termDays: Number(body.termDays),
      tranches: Number(body.tranches),
      releasePeriodDays: Number(body.releasePeriodDays),
      windowHours: Number(body.windowHours),
      collateralAsset: body.collateralAsset,
      collateralAmount: normaliseAmountInput(body.collateralAmount),
      paymentPassword: '',
    });
  });

  async function confirm(paymentPassword: string): Promise<boolean> {
    if (!confirming) return false;
    setRefused(null);
    const { paymentPassword: _none, ...terms } = confirming;
    // The key is the action's, not the password's: a retry with the password typed again is the same publication.
    const key = actionKey.keyFor(JSON.stringify(terms));
    try {
      const request = await publish.mutateAsync({ body: { ...terms, paymentPassword }, idempotencyKey: key });
      actionKey.settle();
      setConfirming(null);
      form.reset();
      onPublished(request.requestNo);
      return true;
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return true;
      const answer = refusedBy(error);
      setRefused(answer);
      const refusal = describeFundRefusal(answer.message, answer.data, format, 'publish');
      if (refusal.field !== undefined && refusal.field !== 'paymentPassword') setConfirming(null);
      return false;
    }
  }

  // The confirmation sheet holds a form of its own, so it is outside this one: a form inside a form
  // submitted itself natively (a GET to /fund?paymentPassword=…) instead of publishing.
  return (
    <>
      <form className="options-form" onSubmit={(event) => event.preventDefault()} noValidate aria-label={t('web.fund.publish.form')} data-testid="fund-publish-form">
        <SelectField
          label={t('web.fund.publish.borrowerType')}
          value={values.borrowerType}
          testId="fund-publish-borrower-type"
          options={(['individual', 'institution'] as const).map((each) => ({ value: each, label: t(borrowerTypeKeys[each]) }))}
          onChange={(value) => form.setValue('borrowerType', value as 'individual' | 'institution')}
        />
        <TextField
          label={t('web.fund.publish.title')}
          maxLength={80}
          autoComplete="off"
          data-testid="fund-publish-title"
          {...form.register('title')}
          error={errorText(errors.title, { required: t('web.fund.publish.titleRequired') })}
        />
        <TextAreaField
          label={t('web.fund.publish.purpose')}
          maxLength={1000}
          testId="fund-publish-purpose"
          {...form.register('purpose')}
          error={errorText(errors.purpose, { required: t('web.fund.publish.purposeRequired') })}
        />
        <TextField
          label={t('web.fund.publish.amount')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          placeholder={t('web.fund.rangeValue', { min: text.amount(policy.minAmount, 'USDT'), max: text.amount(policy.maxAmount, 'USDT') })}
          data-testid="fund-publish-amount"
          {...form.register('amount')}
          error={errorText(errors.amount, words(t('web.fund.publish.amountRequired')))}
        />
        <div className="fund-field-row">
          <TextField
            label={t('web.fund.publish.rate')}
            inputMode="decimal"
            autoComplete="off"
            maxLength={10}
            hint={t('web.fund.publish.rateHint', { max: text.percent(policy.maxDailyRatePercent) })}
            data-testid="fund-publish-rate"
            {...form.register('dailyRatePercent')}
            error={errorText(errors.dailyRatePercent, words(t('web.fund.publish.rateRequired')))}
          />
          <TextField
            label={t('web.fund.publish.term')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            hint={t('web.fund.publish.termHint', { max: policy.maxTermDays })}
            data-testid="fund-publish-term"
            {...form.register('termDays')}
            error={errorText(errors.termDays, words(t('web.fund.publish.termRequired')))}
          />
          <TextField
            label={t('web.fund.publish.tranches')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            hint={t('web.fund.publish.tranchesHint', { max: policy.maxTranches })}
            data-testid="fund-publish-tranches"
            {...form.register('tranches')}
            error={errorText(errors.tranches, words(t('web.fund.publish.tranchesRequired')))}
          />
          <TextField
            label={t('web.fund.publish.period')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            hint={t('web.fund.publish.periodHint')}
            data-testid="fund-publish-period"
            {...form.register('releasePeriodDays')}
            error={errorText(errors.releasePeriodDays, words(t('web.fund.publish.periodRequired')))}
          />
        </div>
        <TextField
          label={t('web.fund.publish.window')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          hint={t('web.fund.publish.windowHint', { min: policy.minWindowHours, max: policy.maxWindowHours })}
          data-testid="fund-publish-window"
          {...form.register('windowHours')}
          error={errorText(errors.windowHours, words(t('web.fund.publish.windowRequired')))}
        />
        <SelectField
          label={t('web.fund.publish.collateralAsset')}
          value={collateralAsset}
          testId="fund-publish-collateral-asset"
          options={assets.map((asset) => ({ value: asset, label: t('web.fund.collateralTerm', { asset, ltv: text.percent(policy.collateralLtvPercent[asset] ?? '0') }) }))}
          onChange={(value) => form.setValue('collateralAsset', value as CollateralAsset)}
        />
        <div className="amount-field">
          <TextField
            label={t('web.fund.publish.collateralAmount', { asset: collateralAsset })}
            inputMode="decimal"
            autoComplete="off"
            maxLength={40}
            data-testid="fund-publish-collateral-amount"
            {...form.register('collateralAmount')}
            error={errorText(errors.collateralAmount, { required: t('web.fund.publish.collateralRequired'), own, asset: collateralAsset, scale: collateralScale })}
          />
          <div className="amount-meta">
            <span className="muted">
              {t('web.fund.available')} <Amount value={available} unit={collateralAsset} max={18} testId="fund-publish-collateral-available" />
            </span>
          </div>
        </div>

        <h3 className="earn-subtitle">{t('web.fund.publish.figures')}</h3>
        <dl className="facts" data-testid="fund-publish-estimate">
          <FundFact label={t('web.fund.interest')} testId="fund-publish-interest" value={estimate.interest ?? ''}>
            {estimate.interest === null
              ? '—'
              : t('web.fund.publish.interestValue', {
                  amount: text.amount(normaliseAmountInput(values.amount ?? ''), 'USDT'),
                  rate: text.percent(normaliseAmountInput(values.dailyRatePercent ?? '')),
                  days: t('web.fund.days', { count: Number(values.termDays) }),
                  interest: text.amount(estimate.interest, 'USDT'),
                })}
          </FundFact>
          <div className="facts-strong">
            <dt>{t('web.fund.totalDue')}</dt>
            <dd data-testid="fund-publish-total" data-value={estimate.totalDue ?? ''}>
              {estimate.totalDue === null ? '—' : <Amount value={estimate.totalDue} unit="USDT" max={6} />}
            </dd>
          </div>
          <FundFact label={t('web.fund.collateralPrice')} testId="fund-publish-price-fact">
            <FundPriceText price={price} asset={collateralAsset} testId="fund-publish-price" />
          </FundFact>
          <UsdtFact label={t('web.fund.collateralValue')} value={estimate.collateralValue} testId="fund-publish-collateral-value" />
          <div className="facts-strong">
            <dt>{t('web.fund.creditLimit')}</dt>
            <dd data-testid="fund-publish-credit-limit" data-value={estimate.creditLimit ?? ''}>
              {estimate.creditLimit === null
                ? '—'
                : t('web.fund.publish.limitValue', {
                    value: text.amount(estimate.collateralValue ?? '0', 'USDT'),
                    ltv: text.percent(estimate.ltvPercent ?? '0'),
                    limit: text.amount(estimate.creditLimit, 'USDT'),
                  })}
            </dd>
          </div>
          <FundFact label={t('web.fund.rating.credit')} testId="fund-publish-credit-rating" value={estimate.creditRating ?? ''}>
            {creditScore === null || estimate.creditRating === null ? t('web.fund.publish.creditRatingUnknown') : t('web.fund.publish.creditRatingValue', { score: creditScore, rating: estimate.creditRating })}
          </FundFact>
          <FundFact label={t('web.fund.rating.investment')} testId="fund-publish-investment-rating" value={estimate.investmentRating ?? ''}>
            {estimate.coverPercent === null || estimate.investmentRating === null
              ? '—'
              : t('web.fund.publish.investmentRatingValue', {
                  value: text.amount(estimate.collateralValue ?? '0', 'USDT'),
                  total: text.amount(estimate.totalDue ?? '0', 'USDT'),
                  cover: text.percent(estimate.coverPercent),
                  rating: estimate.investmentRating,
                })}
          </FundFact>
        </dl>
        {estimate.schedule !== null && (
          <table className="fund-table" data-testid="fund-publish-schedule">
            <caption className="earn-subtitle">{t('web.fund.schedule.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('web.fund.schedule.tranche')}</th>
                <th scope="col">{t('web.fund.schedule.amount')}</th>
                <th scope="col">{t('web.fund.schedule.when')}</th>
              </tr>
            </thead>
            <tbody>
              {estimate.schedule.map((tranche) => (
                <tr key={tranche.number} data-testid={`fund-publish-tranche-${tranche.number}`} data-amount={tranche.amount} data-after-days={String(tranche.afterDays)}>
                  <td>{tranche.number}</td>
                  <td>
                    <Amount value={tranche.amount} unit="USDT" max={6} />
                  </td>
                  <td>{tranche.afterDays === 0 ? t('web.fund.schedule.atFill') : t('web.fund.schedule.afterDays', { count: tranche.afterDays })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="field-hint">{t('web.fund.publish.note')}</p>
        {refused && !confirming && <FundRefusalNotice refused={refused} action="publish" testId="fund-publish-error" />}
        <Button block onClick={() => void proceed()} data-testid="fund-publish-submit">
          {t('web.fund.publish.submit')}
        </Button>
      </form>
      {confirming && (
        <FundPasswordSheet
          title={t('web.fund.publish.confirmTitle')}
          testId="fund-publish-sheet"
          submitLabel={t('web.fund.publish.confirmSubmit')}
          action="publish"
          busy={publish.isPending}
          refused={refused}
          onConfirm={confirm}
          onEdit={() => setRefused(null)}
          onClose={() => setConfirming(null)}
        >
          <dl className="facts">
            <FundFact label={t('web.fund.amount')} testId="fund-publish-sheet-amount" value={confirming.amount}>
              {text.amount(confirming.amount, 'USDT')}
            </FundFact>
            <FundFact label={t('web.fund.totalDue')} testId="fund-publish-sheet-total" value={estimate.totalDue ?? ''}>
              {estimate.totalDue === null ? '—' : text.amount(estimate.totalDue, 'USDT')}
            </FundFact>
            <FundFact label={t('web.fund.collateral')} testId="fund-publish-sheet-collateral" value={confirming.collateralAmount}>
              {text.amount(confirming.collateralAmount, confirming.collateralAsset)}
            </FundFact>
          </dl>
          <p className="field-hint fund-sheet-note">{t('web.fund.publish.confirmNote')}</p>
        </FundPasswordSheet>
      )}
    </>
  );
}

export function PublishNotice({ requestNo }: { requestNo: string }) {
  const { t } = useI18n();
  return <Notice testId="fund-published">{t('web.fund.publish.done', { no: requestNo })}</Notice>;
}
