import { createC2cDepositContract, errorKeyFromMsg, getC2cOptionsContract, listC2cRequestsContract } from '@keel/contracts';
import { useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation } from '../../shared/api/queries.ts';
import { FormError, useContractForm } from '../../shared/forms/index.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { Sheet } from '../options/Sheet.tsx';
import { Fact, type Refused, refusedBy } from '../wallet/WalletParts.tsx';
import { type C2cAmountIn, type C2cAmountLimits, type C2cFigures, c2cCountryOf, c2cFigures, c2cOrderPath, changedPriceOf } from './c2c-figures.ts';
import { depositFormSchema } from './c2c-form.ts';
import { C2cAmountInput, useC2cAmountErrorText } from './C2cAmountInput.tsx';
import { C2cCountryPicker, isServed } from './C2cCountryPicker.tsx';
import { type C2cCountryOption, C2cRefusalNotice, C2cWindows, FiatAmount, PriceText, UnfinishedOrderNotice, UsdtAmount, useCountryName, usePriceText } from './C2cParts.tsx';
import { settledError, useC2cOptions } from './useC2c.ts';
import '../options/options.css';

interface DepositBody {
  country: string;
  amount: string;
  amountIn: C2cAmountIn;
  quotedPrice: string;
}

/** What the confirmation shows and, once confirmed, sends: the price is the one shown. */
interface Pending {
  body: DepositBody;
  option: C2cCountryOption;
  figures: C2cFigures;
  /** The price had changed when the user confirmed: the figures are at the new one. */
  priceChangedFrom: string | null;
}

/**
 * The C2C channel of /assets/recharge (`?via=c2c`, issue 19, ADR 0043): buy USDT with fiat through
 * a merchant. The country (in the address, `&country=`) from the channel's options — its
 * currency, the best price of an online merchant and the order limits; countries no merchant
 * serves now are disabled with the reason — then the amount in fiat or USDT with the other computed
 * live at that price by the domain's conversion (a deposit: USDT rounded down, fiat rounded up), the
 * published windows, and a confirmation. Confirming sends the country, the amount and the price
 * shown; a changed price is shown in the confirmation to confirm again, an unfinished order is named
 * with its link. The order opens at /assets/C2CDeposit/{id}.
 */
export function C2cDepositForm() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const countryName = useCountryName();
  const priceText = usePriceText();
  const amountErrorText = useC2cAmountErrorText();
  const [params, setParams] = useSearchParams();
  const options = useC2cOptions('deposit');
  const create = useContractMutation(createC2cDepositContract, { invalidates: [listC2cRequestsContract, getC2cOptionsContract] });
  const actionKey = useActionKey();
  const [refused, setRefused] = useState<Refused | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  const countries = options.data?.countries ?? [];
  const countryCode = c2cCountryOf(params.get('country'));
  const option = countries.find((each) => each.country === countryCode && isServed(each));

  const limits = useRef<C2cAmountLimits>({ kind: 'deposit', amountIn: 'fiat', price: null, minUsdt: null, maxUsdt: null });
  const schema = useMemo(() => depositFormSchema(() => limits.current), []);
  const form = useContractForm(schema, { defaultValues: { amount: '', amountIn: 'fiat' as C2cAmountIn } });
  const { errors, isSubmitted } = form.formState;
  const [amount, amountIn] = form.watch(['amount', 'amountIn']) as [string, C2cAmountIn];
  limits.current = { kind: 'deposit', amountIn, price: option?.bestPrice ?? null, minUsdt: option?.minUsdt ?? null, maxUsdt: option?.maxUsdt ?? null };
  const typed = normaliseAmountInput(amount);
  const figures = typed === '' || !option ? null : c2cFigures('deposit', amountIn, typed, option.bestPrice);

  function chooseCountry(code: string) {
    const next = new URLSearchParams(params);
    next.set('country', code);
    setParams(next, { replace: true });
    setRefused(null);
    if (isSubmitted) void form.trigger('amount');
  }

  function chooseAmountIn(next: C2cAmountIn) {
    if (next === amountIn) return;
    // The same order in the other unit: what was computed becomes what is typed.
    if (figures && figures.usdtMinor > 0n) form.setValue('amount', next === 'fiat' ? figures.fiat : figures.usdt);
    form.setValue('amountIn', next);
    limits.current = { ...limits.current, amountIn: next };
    setRefused(null);
    if (isSubmitted) void form.trigger('amount');
  }

  const submit = form.handleSubmit((values) => {
    setRefused(null);
    if (!option?.bestPrice) return;
    const shown = c2cFigures('deposit', values.amountIn, values.amount, option.bestPrice);
    if (!shown) return;
    setPending({ body: { country: option.country, amount: values.amount, amountIn: values.amountIn, quotedPrice: option.bestPrice }, option, figures: shown, priceChangedFrom: null });
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
      const newPrice = errorKeyFromMsg(found.message) === 'C2C_PRICE_CHANGED' ? changedPriceOf(found.data) : null;
      if (newPrice) {
        // The best price moved: the same order at the new price, to confirm again.
        const next = c2cFigures('deposit', confirmed.body.amountIn, confirmed.body.amount, newPrice);
        if (next) {
          setPending({ ...confirmed, body: { ...confirmed.body, quotedPrice: newPrice }, figures: next, priceChangedFrom: confirmed.body.quotedPrice });
          void options.refetch();
          return;
        }
      }
      setPending(null);
      setRefused(found);
      void options.refetch();
    }
  }

  const unfinished = options.data?.unfinishedOrderId ?? null;
  const currency = option?.currency ?? '';

  return (
    <>
      {loadFailed(options) && <LoadFailedNotice onRetry={() => void options.refetch()} />}
      {unfinished && <UnfinishedOrderNotice orderId={unfinished} />}
      <form className="card form-card" onSubmit={submit} noValidate data-testid="c2c-deposit-form">
        <h2 className="card-title">{t('web.c2c.deposit.formTitle')}</h2>
        <p className="muted">{t('web.c2c.deposit.intro')}</p>
        {refused && <C2cRefusalNotice refused={refused} />}
        <FormError form={form} />
        <C2cCountryPicker kind="deposit" countries={countries} value={countryCode ?? ''} onChange={chooseCountry} loading={options.data === undefined} />
        {option && (
          <C2cAmountInput
            kind="deposit"
            option={option}
            amountIn={amountIn}
            onAmountIn={chooseAmountIn}
            field={form.register('amount', { onChange: () => setRefused(null) })}
            error={amountErrorText(errors.amount, { amountIn, currency, option })}
            figures={figures}
          />
        )}
        <Button type="submit" block disabled={!option} data-testid="c2c-deposit-submit">
          {t('web.c2c.deposit.submit')}
        </Button>
      </form>
      {options.data && (
        <Card>
          <h2 className="card-title">{t('web.c2c.windows.title')}</h2>
          <p className="muted">{t('web.c2c.windows.depositIntro')}</p>
          <C2cWindows windows={options.data.windows} kind="deposit" />
        </Card>
      )}
      {pending && (
        <Sheet
          title={t('web.c2c.deposit.confirmTitle')}
          onClose={() => {
            if (!create.isPending) setPending(null);
          }}
          testId="c2c-deposit-confirm"
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
            <Fact label={t('web.c2c.preview.youPay')} testId="c2c-confirm-fiat">
              <FiatAmount value={pending.figures.fiat} currency={pending.option.currency} />
            </Fact>
            <Fact label={t('web.c2c.preview.youReceive')} testId="c2c-confirm-usdt">
              <UsdtAmount value={pending.figures.usdt} />
            </Fact>
          </dl>
          <p className="field-hint">{t('web.c2c.deposit.confirmNote')}</p>
          {options.data && <p className="field-hint">{t('web.c2c.deposit.confirmWindows', { match: options.data.windows.matchMinutes, pay: options.data.windows.paymentMinutes })}</p>}
          <div className="options-sheet-actions">
            <Button variant="secondary" disabled={create.isPending} onClick={() => setPending(null)} data-testid="c2c-confirm-back">
              {t('web.c2c.confirm.back')}
            </Button>
            <Button busy={create.isPending} onClick={() => void send(pending)} data-testid="c2c-confirm-send">
              {pending.priceChangedFrom ? t('web.c2c.confirm.sendNewPrice') : t('web.c2c.deposit.confirmSend')}
            </Button>
          </div>
        </Sheet>
      )}
    </>
  );
}
