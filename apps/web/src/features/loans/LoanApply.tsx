import { useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useContractForm } from '../../shared/forms/index.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { PhotoPicker } from '../verification/PhotoPicker.tsx';
import { applySearch, readApplyParams } from './apply-params.ts';
import { applyEstimate, collateralNeeded, loanAssetScale } from './loan-figures.ts';
import { type ApplyLimits, applyFormSchema } from './loan-form.ts';
import { LoanFact, LoanSwitch, PriceText, useLoanText } from './LoanParts.tsx';
import { LoanProductFacts } from './LoanTerms.tsx';
import { useLoansOverview } from './useLoans.ts';

/**
 * /person/Apply: choose a product, the amount, the collateral asset and amount; the interest
 * (amount × daily rate × cycle days), the total due, the pledge's credit (its value × the asset's
 * LTV) and the limit are shown live, computed by the domain's rules; the holding-ID photo is uploaded
 * (purpose `loan_holding`); then the agreement for these numbers (/person/loanagreement), the
 * choices carried in the address.
 */
export function LoanApplyView() {
  const { t } = useI18n();
  const text = useLoanText();
  const navigate = useNavigate();
  const errorText = useMoneyErrorText();
  const [params, setParams] = useSearchParams();
  const initial = useMemo(() => readApplyParams(params), [params]);
  const overview = useLoansOverview();
  const data = overview.data;
  const openProducts = data?.products.filter((each) => each.open) ?? [];
  const [productId, setProductId] = useState(initial.productId);
  const product = openProducts.find((each) => each.id === productId) ?? openProducts[0] ?? null;
  const [chosenAsset, setChosenAsset] = useState(initial.collateralAsset);
  const term = product?.collateral.find((each) => each.asset === chosenAsset) ?? product?.collateral[0] ?? null;
  const collateralAsset = term?.asset ?? '';
  const [holdingUploadId, setHoldingUploadId] = useState(initial.holdingUploadId);
  const [keptPhoto, setKeptPhoto] = useState(initial.holdingUploadId !== '');
  const [uploading, setUploading] = useState(false);
  const [photoMissing, setPhotoMissing] = useState(false);

  const collateralAvailable = data?.balances.find((each) => each.asset === collateralAsset)?.available;
  const limits = useRef<ApplyLimits>({ collateralScale: 8, collateralAvailable: undefined });
  limits.current = { collateralScale: loanAssetScale(collateralAsset), collateralAvailable };
  const schema = useMemo(() => applyFormSchema(() => limits.current), []);
  const form = useContractForm(schema, { defaultValues: { amount: initial.amount, collateralAmount: initial.collateralAmount } });
  const amount = normaliseAmountInput(form.watch('amount'));
  const collateralAmount = normaliseAmountInput(form.watch('collateralAmount'));

  if (overview.failed && !data) return <LoadFailedNotice onRetry={overview.reload} />;
  if (!data) return <p className="muted">{t('web.common.loading')}</p>;
  if (!product || !term) {
    return (
      <>
        <LoanSwitch current="apply" />
        <Notice tone="warning" testId="loan-apply-no-product">
          <p>{t('web.loans.products.none')}</p>
          <Link to="/person/Loan">{t('web.loans.nav.overview')}</Link>
        </Notice>
      </>
    );
  }
  const shown = product;
  const estimate = applyEstimate(shown, { amount, collateralAsset, collateralAmount }, { prices: data.prices, available: data.credit.available });
  const needed = collateralNeeded(amount, term, data.prices);
  const price = data.prices.find((each) => each.asset === collateralAsset) ?? null;

  function remember(next: Partial<ReturnType<typeof readApplyParams>>) {
    const search = applySearch({
      productId: shown.id,
      amount: normaliseAmountInput(form.getValues('amount')),
      collateralAsset,
      collateralAmount: normaliseAmountInput(form.getValues('collateralAmount')),
      holdingUploadId,
      ...next,
    });
    setParams(new URLSearchParams(search), { replace: true });
  }

  const proceed = form.handleSubmit((values) => {
    if (holdingUploadId === '') {
      setPhotoMissing(true);
      return;
    }
    if (estimate.problem !== null) return;
    navigate(`/person/loanagreement${applySearch({ productId: shown.id, amount: values.amount, collateralAsset, collateralAmount: values.collateralAmount, holdingUploadId })}`);
  }, () => {
    if (holdingUploadId === '') setPhotoMissing(true);
  });

  const problemText =
    estimate.problem === 'amount_wrong'
      ? t('web.loans.apply.outOfRange', { min: text.amount(shown.minAmount, 'USDT'), max: text.amount(shown.maxAmount, 'USDT') })
      : estimate.problem === 'quota_insufficient'
        ? t('web.loans.apply.aboveLimit', { limit: text.amount(estimate.limit, 'USDT') })
        : undefined;

  return (
    <>
      <LoanSwitch current="apply" />
      <Card className="loans-card">
        <form className="options-form" onSubmit={(event) => event.preventDefault()} noValidate aria-label={t('web.loans.apply.form')}>
          <SelectField
            label={t('web.loans.apply.product')}
            value={shown.id}
            testId="loan-apply-product"
            options={openProducts.map((each) => ({ value: each.id, label: t('web.loans.apply.productOption', { name: each.name, days: t('web.loans.days', { count: each.cycleDays }), rate: text.percent(each.dailyRatePercent) }) }))}
            onChange={(value) => {
              setProductId(value);
              remember({ productId: value });
            }}
          />
          <LoanProductFacts product={shown} testPrefix="loan-apply-product" />
          <TextField
            label={t('web.loans.apply.amount')}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('web.loans.rangeValue', { min: text.amount(shown.minAmount, 'USDT'), max: text.amount(shown.maxAmount, 'USDT') })}
            maxLength={40}
            data-testid="loan-apply-amount"
            {...form.register('amount')}
            error={errorText(form.formState.errors.amount, { required: t('web.loans.apply.amountRequired'), asset: 'USDT', scale: 6 }) ?? problemText}
          />
          <SelectField
            label={t('web.loans.apply.collateralAsset')}
            value={collateralAsset}
            testId="loan-apply-collateral-asset"
            options={shown.collateral.map((each) => ({ value: each.asset, label: t('web.loans.collateralTerm', { asset: each.asset, ltv: text.percent(each.ltvPercent) }) }))}
            onChange={(value) => {
              setChosenAsset(value);
              remember({ collateralAsset: value });
            }}
          />
          <div className="amount-field">
            <TextField
              label={t('web.loans.apply.collateralAmount', { asset: collateralAsset })}
              inputMode="decimal"
              autoComplete="off"
              maxLength={40}
              data-testid="loan-apply-collateral-amount"
              {...form.register('collateralAmount')}
              error={errorText(form.formState.errors.collateralAmount, {
                required: t('web.loans.apply.collateralRequired'),
                asset: collateralAsset,
                scale: loanAssetScale(collateralAsset),
              })}
            />
            <div className="amount-meta">
              <span className="muted">
                {t('web.loans.available')} <Amount value={collateralAvailable ?? '0'} unit={collateralAsset} max={18} testId="loan-apply-collateral-available" />
              </span>
              {needed !== null && (
                <Button variant="ghost" className="btn-small" data-testid="loan-apply-use-needed" onClick={() => form.setValue('collateralAmount', needed, { shouldValidate: true })}>
                  {t('web.loans.apply.useNeeded', { amount: text.amount(needed, collateralAsset) })}
                </Button>
              )}
            </div>
          </div>
          <dl className="facts" data-testid="loan-apply-estimate">
            <LoanFact label={t('web.loans.collateralPrice')} testId="loan-apply-price" value={price?.price ?? (collateralAsset === 'USDT' ? '1' : '')}>
              {collateralAsset === 'USDT' ? t('web.loans.priceFixed', { price: text.amount('1', 'USDT') }) : <PriceText price={price} />}
            </LoanFact>
            <LoanFact label={t('web.loans.interest')} testId="loan-apply-interest" value={estimate.interest ?? ''}>
              {estimate.interest === null ? '—' : t('web.loans.apply.interestValue', { amount: text.amount(amount, 'USDT'), rate: text.percent(shown.dailyRatePercent), days: t('web.loans.days', { count: shown.cycleDays }), interest: text.amount(estimate.interest, 'USDT') })}
            </LoanFact>
            <div className="facts-strong">
              <dt>{t('web.loans.totalDue')}</dt>
              <dd data-testid="loan-apply-total" data-value={estimate.totalDue ?? ''}>
                {estimate.totalDue === null ? '—' : <Amount value={estimate.totalDue} unit="USDT" max={6} />}
              </dd>
            </div>
            <LoanFact label={t('web.loans.collateralValue')} testId="loan-apply-collateral-value" value={estimate.collateralValue ?? ''}>
              {estimate.collateralValue === null ? '—' : <Amount value={estimate.collateralValue} unit="USDT" max={6} />}
            </LoanFact>
            <LoanFact label={t('web.loans.pledgeCredit')} testId="loan-apply-pledge-credit" value={estimate.pledgeCredit ?? ''}>
              {estimate.pledgeCredit === null ? '—' : t('web.loans.apply.pledgeValue', { value: text.amount(estimate.collateralValue ?? '0', 'USDT'), ltv: text.percent(term.ltvPercent), credit: text.amount(estimate.pledgeCredit, 'USDT') })}
            </LoanFact>
            <LoanFact label={t('web.loans.credit.available')} testId="loan-apply-available-credit" value={data.credit.available}>
              <Amount value={data.credit.available} unit="USDT" max={6} />
            </LoanFact>
            <div className="facts-strong">
              <dt>{t('web.loans.limit')}</dt>
              <dd data-testid="loan-apply-limit" data-value={estimate.limit}>
                <Amount value={estimate.limit} unit="USDT" max={6} />
              </dd>
            </div>
          </dl>
          <p className="field-hint">{t('web.loans.apply.limitNote')}</p>
          <PhotoPicker
            label={t('web.loans.apply.holdingPhoto')}
            name="holding"
            purpose="loan_holding"
            missing={photoMissing && holdingUploadId === ''}
            onUploading={setUploading}
            onChange={(value) => {
              setKeptPhoto(false);
              setHoldingUploadId(value?.uploadId ?? '');
              if (value) {
                setPhotoMissing(false);
                remember({ holdingUploadId: value.uploadId });
              }
            }}
          />
          <p className="field-hint" data-testid="loan-apply-holding-hint" data-upload-id={holdingUploadId}>
            {keptPhoto ? t('web.loans.apply.holdingKept') : t('web.loans.apply.holdingHint')}
          </p>
          <Button block busy={uploading} onClick={() => void proceed()} data-testid="loan-apply-continue">
            {t('web.loans.apply.continue')}
          </Button>
        </form>
      </Card>
    </>
  );
}
