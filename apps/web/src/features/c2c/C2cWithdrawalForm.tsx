import {
  ApiError,
  createC2cWithdrawalContract,
  errorCatalogue,
  errorKeyFromMsg,
  getC2cBankDetailsContract,
  getC2cOptionsContract,
  listAccountsContract,
  listC2cRequestsContract,
  listRecordsContract,
  walletOverviewContract,
} from '@keel/contracts';
import { type BankDetails, bankDetailFields, type C2cCountry } from '@keel/domain';
import { type ChangeEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { applyRefusal, FormError, useContractForm, useErrorText } from '../../shared/forms/index.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Card, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { balanceOf } from '../assets/accounts.ts';
import { useAccounts } from '../assets/useAccounts.ts';
import { Sheet } from '../options/Sheet.tsx';
import { TextAreaField } from '../p2p/P2pParts.tsx';
import { Fact, MonoText, type Refused, refusedBy, useWalletOverview } from '../wallet/WalletParts.tsx';
import { WithdrawRules } from '../wallet/WithdrawRules.tsx';
import {
  bankDetailsValues,
  type C2cAmountIn,
  type C2cAmountLimits,
  type C2cFigures,
  c2cFigures,
  c2cOrderPath,
  c2cWithdrawalPath,
  changedPriceOf,
  emptyBankDetails,
  requiredBankFields,
} from './c2c-figures.ts';
import { type WithdrawalValues, withdrawalFormSchema } from './c2c-form.ts';
import { C2cAmountInput, useC2cAmountErrorText } from './C2cAmountInput.tsx';
import { C2cCountryPicker, isServed } from './C2cCountryPicker.tsx';
import { bankLabelKey } from './C2cOrder.tsx';
import { type C2cCountryOption, C2cRefusalNotice, C2cWindows, FiatAmount, PriceText, UnfinishedOrderNotice, UsdtAmount, useCountryName, usePriceText } from './C2cParts.tsx';
import { settledError, useC2cOptions } from './useC2c.ts';
import '../options/options.css';

const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, 6);
/** Fields whose text is a code (read left to right, never capitalised or corrected). */
const CODED: ReadonlySet<keyof BankDetails> = new Set(['cardNumber', 'routingNumber', 'branchNumber', 'accountNumber', 'bankCode', 'swiftCode', 'branchCode']);
const MAX_LENGTH: Record<keyof BankDetails, number> = {
  payeeName: 80,
  cardNumber: 32,
  routingNumber: 32,
  branchNumber: 32,
  bankName: 80,
  accountName: 80,
  accountNumber: 40,
  bankCode: 32,
  swiftCode: 16,
  bankAddress: 200,
  branchCode: 32,
  remarks: 200,
};
/** Refusals that belong to a field of the form; the rest show above it. */
const FIELD_REFUSALS: readonly string[] = ['PARAMETER_ERROR', 'WRONG_AMOUNT'];

interface Pending {
  body: WithdrawalValues & { country: string; quotedPrice: string };
  option: C2cCountryOption;
  figures: C2cFigures;
  priceChangedFrom: string | null;
}

/**
 * /assets/C2CWithdrawal/{country} (issue 19, ADR 0043): sell USDT for fiat through a merchant. The
 * country (`select`: none chosen yet) with its currency, the best price an online merchant pays
 * and the order limits; the amount in USDT or fiat with the other computed live by the domain's
 * conversion (a withdrawal: USDT rounded up, fiat rounded down) against the fiat account's
 * available USDT, which the order holds; the spec's bank detail fields, prefilled from the user's
 * last withdrawal to the country and checked by the country's formats (`bankDetailsProblems`, as
 * the server checks them); the payment password. A confirmation states the figures; the order opens
 * at /assets/C2CWithdrawalInfo/{id}. It is judged by the published withdrawal rules (below).
 */
export function C2cWithdrawalForm({ country }: { country: C2cCountry | null }) {
  const { t, tServer } = useI18n();
  const navigate = useNavigate();
  const countryName = useCountryName();
  const priceText = usePriceText();
  const amountErrorText = useC2cAmountErrorText();
  const errorText = useErrorText();
  const options = useC2cOptions('withdrawal');
  const overview = useWalletOverview();
  const { accounts, failed: accountsFailed, reload: reloadAccounts } = useAccounts();
  const saved = useContractQuery(getC2cBankDetailsContract, { query: { country: country ?? 'US' } }, { enabled: country !== null });
  const create = useContractMutation(createC2cWithdrawalContract, {
    invalidates: [listC2cRequestsContract, getC2cOptionsContract, listAccountsContract, listRecordsContract, walletOverviewContract, getC2cBankDetailsContract],
  });
  const actionKey = useActionKey();
  const now = useNow(true, 30_000);
  const [refused, setRefused] = useState<Refused | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  const countries = options.data?.countries ?? [];
  const option = countries.find((each) => each.country === country && isServed(each));
  const available = accounts ? (balanceOf(accounts, 'fiat', 'USDT')?.available ?? '0') : undefined;

  const limits = useRef<C2cAmountLimits>({ kind: 'withdrawal', amountIn: 'usdt', price: null, minUsdt: null, maxUsdt: null });
  const chosenCountry = useRef<C2cCountry | null>(country);
  chosenCountry.current = country;
  const schema = useMemo(
    () =>
      withdrawalFormSchema(
        () => limits.current,
        () => chosenCountry.current,
      ),
    [],
  );
  const form = useContractForm(schema, {
    defaultValues: { amount: '', amountIn: 'usdt', bankDetails: { ...emptyBankDetails }, paymentPassword: '' } satisfies WithdrawalValues,
  });
  const { errors, isSubmitted } = form.formState;
  const [amount, amountIn] = form.watch(['amount', 'amountIn']) as [string, C2cAmountIn];
  limits.current = { kind: 'withdrawal', amountIn, price: option?.bestPrice ?? null, minUsdt: option?.minUsdt ?? null, maxUsdt: option?.maxUsdt ?? null, available };
  const typed = normaliseAmountInput(amount);
  const figures = typed === '' || !option ? null : c2cFigures('withdrawal', amountIn, typed, option.bestPrice);

  // The bank details of the user's last withdrawal to this country, once per country chosen.
  const prefilledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!country || saved.data === undefined || prefilledFor.current === country) return;
    prefilledFor.current = country;
    const values = bankDetailsValues(saved.data);
    for (const field of bankDetailFields) form.setValue(`bankDetails.${field}` as const, values[field]);
    if (isSubmitted) void form.trigger('bankDetails');
  }, [country, saved.data, form, isSubmitted]);

  function chooseCountry(code: string) {
    setRefused(null);
    navigate(c2cWithdrawalPath(code), { replace: true });
  }

  function chooseAmountIn(next: C2cAmountIn) {
    if (next === amountIn) return;
    if (figures && figures.fiatMinor > 0n) form.setValue('amount', next === 'fiat' ? figures.fiat : figures.usdt);
    form.setValue('amountIn', next);
    limits.current = { ...limits.current, amountIn: next };
    setRefused(null);
    if (isSubmitted) void form.trigger('amount');
  }

  const submit = form.handleSubmit((raw) => {
    const values = raw as WithdrawalValues;
    setRefused(null);
    if (!option?.bestPrice || !country) return;
    const shown = c2cFigures('withdrawal', values.amountIn, values.amount, option.bestPrice);
    if (!shown) return;
    setPending({ body: { ...values, country, quotedPrice: option.bestPrice }, option, figures: shown, priceChangedFrom: null });
  });

  async function send(confirmed: Pending) {
    try {
      const answer = await create.mutateAsync({ body: confirmed.body, idempotencyKey: actionKey.keyFor(JSON.stringify(confirmed.body)) });
      actionKey.settle();
      navigate(c2cOrderPath(answer));
    } catch (error) {
      actionKey.settle(settledError(error));
      if (isSessionError(error)) return;
      const found = refusedBy(error);
      const key = errorKeyFromMsg(found.message);
      const newPrice = key === 'C2C_PRICE_CHANGED' ? changedPriceOf(found.data) : null;
      const next = newPrice ? c2cFigures('withdrawal', confirmed.body.amountIn, confirmed.body.amount, newPrice) : null;
      void options.refetch();
      if (newPrice && next) {
        setPending({ ...confirmed, body: { ...confirmed.body, quotedPrice: newPrice }, figures: next, priceChangedFrom: confirmed.body.quotedPrice });
        return;
      }
      setPending(null);
      if (key === 'WRONG_PAYMENT_PASSWORD' || key === 'PAYMENT_PASSWORD_LOCKED') form.setValue('paymentPassword', '');
      if (error instanceof ApiError && key !== undefined && FIELD_REFUSALS.includes(key)) {
        applyRefusal(form, error, { fieldErrors: { WRONG_AMOUNT: 'amount' } });
        return;
      }
      setRefused(found);
      void overview.refetch();
    }
  }

  const required = country ? requiredBankFields(country) : new Set<keyof BankDetails>();
  const bankErrors = (errors as { bankDetails?: Partial<Record<keyof BankDetails, { message?: string }>> }).bankDetails;
  const unfinished = options.data?.unfinishedOrderId ?? null;
  const standing = overview.data?.standing;
  const refusedKey = refused ? errorKeyFromMsg(refused.message) : undefined;

  return (
    <>
      {(loadFailed(options) || accountsFailed || loadFailed(overview)) && (
        <LoadFailedNotice
          onRetry={() => {
            void options.refetch();
            void overview.refetch();
            reloadAccounts();
          }}
        />
      )}
      {unfinished && <UnfinishedOrderNotice orderId={unfinished} />}
      {standing && !standing.paymentPasswordSet && (
        <Notice tone="warning" title={tServer(errorCatalogue.PAYMENT_PASSWORD_NOT_SET.msg)} testId="c2c-no-paypassword">
          <p>{t('web.withdraw.refusal.noPaymentPassword')}</p>
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small">
            {t('web.withdraw.setPaymentPassword')}
          </Link>
        </Notice>
      )}
      <form className="card form-card" onSubmit={submit} noValidate data-testid="c2c-withdrawal-form">
        <p className="muted">{t('web.c2c.withdrawal.intro')}</p>
        {refused && <C2cRefusalNotice refused={refused} />}
        <FormError form={form} />
        <C2cCountryPicker kind="withdrawal" countries={countries} value={country ?? ''} onChange={chooseCountry} loading={options.data === undefined} />
        {option && (
          <>
            <C2cAmountInput
              kind="withdrawal"
              option={option}
              amountIn={amountIn}
              onAmountIn={chooseAmountIn}
              field={form.register('amount', { onChange: () => setRefused(null) })}
              error={amountErrorText(errors.amount, { amountIn, currency: option.currency, option })}
              figures={figures}
            />
            <p className="field-hint" data-testid="c2c-fiat-available">
              {t('web.c2c.withdrawal.available')} {available === undefined ? '…' : <UsdtAmount value={available} testId="c2c-fiat-available-amount" />}{' '}
              <Link to="/assets/transfer" data-testid="c2c-to-transfer">
                {t('web.c2c.withdrawal.transferLink')}
              </Link>
            </p>
            <fieldset className="c2c-bank" data-testid="c2c-bank">
              <legend className="card-title">{t('web.c2c.bank.title')}</legend>
              <p className="field-hint">{saved.data ? t('web.c2c.bank.prefilled') : t('web.c2c.bank.intro')}</p>
              {bankDetailFields.map((field) => {
                const label = t(bankLabelKey(field, option.country));
                const shown = required.has(field) ? label : t('web.c2c.bank.optional', { label });
                const props = form.register(`bankDetails.${field}` as const, { onChange: () => setRefused(null) });
                const error = errorText(bankErrors?.[field]);
                return field === 'remarks' || field === 'bankAddress' ? (
                  <TextAreaField key={field} label={shown} rows={2} maxLength={MAX_LENGTH[field]} testId={`c2c-bank-${field}`} {...props} error={error} />
                ) : (
                  <TextField
                    key={field}
                    label={shown}
                    autoComplete={field === 'payeeName' ? 'name' : 'off'}
                    maxLength={MAX_LENGTH[field]}
                    {...(CODED.has(field) ? { dir: 'ltr', spellCheck: false, autoCapitalize: 'characters' } : {})}
                    data-testid={`c2c-bank-${field}`}
                    {...props}
                    error={error}
                  />
                );
              })}
            </fieldset>
            <TextField
              label={t('web.withdraw.paymentPassword')}
              type="password"
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              hint={t('web.settings.sixDigitsHint')}
              data-testid="c2c-paypassword"
              {...form.register('paymentPassword', {
                onChange: (event: ChangeEvent<HTMLInputElement>) => {
                  const digits = digitsOnly(event.target.value);
                  if (digits !== event.target.value) form.setValue('paymentPassword', digits);
                  setRefused(null);
                },
              })}
              error={refusedKey === 'WRONG_PAYMENT_PASSWORD' || refusedKey === 'PAYMENT_PASSWORD_LOCKED' ? tServer(refused!.message) : errorText(errors.paymentPassword)}
            />
          </>
        )}
        <Button type="submit" block disabled={!option} data-testid="c2c-withdrawal-submit">
          {t('web.c2c.withdrawal.submit')}
        </Button>
      </form>
      {options.data && (
        <Card>
          <h2 className="card-title">{t('web.c2c.windows.title')}</h2>
          <p className="muted">{t('web.c2c.windows.withdrawalIntro')}</p>
          <C2cWindows windows={options.data.windows} kind="withdrawal" />
        </Card>
      )}
      {overview.data && <WithdrawRules rules={overview.data.rules} standing={overview.data.standing} now={now} />}
      {pending && (
        <Sheet
          title={t('web.c2c.withdrawal.confirmTitle')}
          onClose={() => {
            if (!create.isPending) setPending(null);
          }}
          testId="c2c-withdrawal-confirm"
        >
          {pending.priceChangedFrom && (
            <Notice tone="warning" title={t('web.c2c.priceChanged.title')} testId="c2c-price-changed">
              <p>
                {t('web.c2c.priceChanged.body', {
                  old: priceText(pending.priceChangedFrom, pending.option.currency),
                  new: priceText(pending.body.quotedPrice, pending.option.currency),
                })}
              </p>
            </Notice>
          )}
          <dl className="facts">
            <Fact label={t('web.c2c.country.label')} testId="c2c-confirm-country">
              {countryName(pending.option.country)}
            </Fact>
            <Fact label={t('web.c2c.preview.price')} testId="c2c-confirm-price">
              <PriceText value={pending.body.quotedPrice} currency={pending.option.currency} />
            </Fact>
            <Fact label={t('web.c2c.preview.youSell')} testId="c2c-confirm-usdt">
              <UsdtAmount value={pending.figures.usdt} />
            </Fact>
            <Fact label={t('web.c2c.preview.youReceive')} testId="c2c-confirm-fiat">
              <FiatAmount value={pending.figures.fiat} currency={pending.option.currency} />
            </Fact>
            <Fact label={t('web.c2c.bank.payeeName')} testId="c2c-confirm-payee">
              <bdi>{pending.body.bankDetails.payeeName}</bdi>
            </Fact>
            <Fact label={t(bankLabelKey('accountNumber', pending.option.country))} testId="c2c-confirm-account">
              <MonoText value={pending.body.bankDetails.accountNumber} />
            </Fact>
          </dl>
          <p className="field-hint">{t('web.c2c.withdrawal.confirmNote')}</p>
          <div className="options-sheet-actions">
            <Button variant="secondary" disabled={create.isPending} onClick={() => setPending(null)} data-testid="c2c-confirm-back">
              {t('web.c2c.confirm.back')}
            </Button>
            <Button busy={create.isPending} onClick={() => void send(pending)} data-testid="c2c-confirm-send">
              {pending.priceChangedFrom ? t('web.c2c.confirm.sendNewPrice') : t('web.c2c.withdrawal.confirmSend')}
            </Button>
          </div>
        </Sheet>
      )}
    </>
  );
}
