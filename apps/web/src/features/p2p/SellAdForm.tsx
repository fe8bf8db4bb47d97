import {
  editP2pAdContract,
  listAccountsContract,
  listP2pAdsContract,
  listRecordsContract,
  postP2pAdContract,
  securityOverviewContract,
  validationMessages,
} from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { api, isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { useContractForm } from '../../shared/forms/index.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { balanceOf } from '../assets/accounts.ts';
import { amountProblem } from '../assets/amount-field.ts';
import { useAccounts } from '../assets/useAccounts.ts';
import { type MoneyErrorWords, useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { useRefusalFormat } from '../wallet/WalletParts.tsx';
import {
  type AdFormContext,
  type AdFormValues,
  adFormSchema,
  CONTACT_MAX,
  FIAT_SCALE,
  fiatTotal,
  type P2pAdSide,
  P2P_SCALE,
  p2pRules,
  PAYMENT_WINDOW_DEFAULT,
  PAYMENT_WINDOW_MAX,
  PAYMENT_WINDOW_MIN,
  REMARK_MAX,
} from './ad-form.ts';
import type { P2pAd } from './order-rules.ts';
import { describeP2pRefusal } from './p2p-refusal.ts';
import { contactKindKeys, FiatAmount, P2pRefusalNotice, type Refused, refusedOf, TextAreaField, UsdtAmount, useFiatOptions } from './P2pParts.tsx';

const MAX_PAGES_SEARCHED = 20;
const SEARCH_PAGE_SIZE = 100;

/**
 * One of the user's own ads, looked up in "my ads" (there is no call for a single ad). Cached under
 * the list's contract, so whatever invalidates the ads invalidates it too.
 */
function useMyAd(adId: string | null) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: contractKey(listP2pAdsContract, { mineById: adId }),
    enabled: adId !== null,
    queryFn: async (): Promise<P2pAd | null> => {
      for (let page = 1; page <= MAX_PAGES_SEARCHED; page += 1) {
        const input = { query: { page, pageSize: SEARCH_PAGE_SIZE, mine: 'true' as const } };
        const answer = await client.fetchQuery({ queryKey: contractKey(listP2pAdsContract, input), queryFn: () => api(listP2pAdsContract, input) });
        const found = answer.items.find((each) => each.id === adId);
        if (found) return found;
        if (page * SEARCH_PAGE_SIZE >= answer.total) break;
      }
      return null;
    },
  });
  const problem: 'notFound' | 'failed' | null = query.data === null ? 'notFound' : loadFailed(query) ? 'failed' : null;
  return { ad: query.data ?? null, problem, reload: () => void query.refetch() };
}

const emptyValues = (): AdFormValues => ({
  fiat: 'INR',
  price: '',
  min: '',
  max: '',
  quantity: '',
  paymentWindowMinutes: PAYMENT_WINDOW_DEFAULT,
  contact: '',
  remark: '',
});

/** "10.000000" → "10", "12.500000" → "12.5": the server's fixed decimals, as a person would type them. */
const typed = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

const valuesOf = (ad: P2pAd): AdFormValues => ({
  fiat: ad.fiat,
  price: ad.price,
  min: typed(ad.min),
  max: typed(ad.max),
  quantity: typed(ad.remaining),
  paymentWindowMinutes: ad.paymentWindowMinutes,
  contact: ad.contact,
  remark: ad.remark,
});

type AdField = keyof AdFormValues;

/**
 * /trade/shopping/sell: post an ad (or, with `?ad={id}`, edit one of mine), of either side. A sell
 * ad's whole quantity is frozen in escrow (a ledger hold on the fiat account, the account P2P trades
 * from) when the ad is posted, so every order on it is backed by coins that cannot move elsewhere;
 * what is not sold returns when the ad is lowered or closed. The form shows the fiat account's
 * available USDT and a way to move more there. A buy ad (issue 19, `side="buy"`) states the
 * quantity wanted and holds nothing: each seller's coins are held when they sell into it. The
 * fields are the same; the texts say which.
 * Posting needs identity verification and a bound contact method (spec section 5); the contact is
 * prefilled from the user's P2P contact methods. The form is checked by `adFormSchema` (the
 * contract's fields and the P2P rules between them). An edited ad keeps its side.
 */
export function SellAdForm({ editId, side: newSide = 'sell' }: { editId: string | null; side?: P2pAdSide }) {
  const { t, tRich } = useI18n();
  const navigate = useNavigate();
  const toast = useToast();
  const actionKey = useActionKey();
  const format = useRefusalFormat();
  const fiatOptions = useFiatOptions();
  const errorText = useMoneyErrorText();
  const security = useContractQuery(securityOverviewContract);
  const { accounts, failed: accountsFailed, reload: reloadAccounts } = useAccounts();
  // An ad's quantity is held in escrow from the fiat account: balances and records change with it.
  const changes = { invalidates: [listP2pAdsContract, listAccountsContract, listRecordsContract] };
  const post = useContractMutation(postP2pAdContract, changes);
  const edit = useContractMutation(editP2pAdContract, changes);
  const existing = useMyAd(editId);
  const editing = editId !== null;
  const side: P2pAdSide = editing ? (existing.ad?.side ?? 'sell') : newSide;
  const buyAd = side === 'buy';
  const available = accounts ? (balanceOf(accounts, 'fiat', 'USDT')?.available ?? '0') : undefined;
  // The schema reads the balance, the side and the ad on screen when it checks.
  const context = useRef<AdFormContext>({ mode: editing ? 'edit' : 'post' });
  context.current = editing ? { mode: 'edit', currentRemaining: existing.ad?.remaining } : { mode: 'post', side, available };
  const schema = useMemo(() => adFormSchema(() => context.current), []);
  const form = useContractForm(schema, { defaultValues: emptyValues() });
  const { errors, isSubmitted } = form.formState;
  const [loadedAd, setLoadedAd] = useState<string | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);

  const methods = security.data?.contactMethods ?? [];
  const methodTexts = methods.map((method) => `${t(contactKindKeys[method.kind])}: ${method.value}`);
  const allMethods = methodTexts.join(' · ');

  // The ad being edited fills the form once it is found.
  useEffect(() => {
    if (!existing.ad || loadedAd === existing.ad.id) return;
    setLoadedAd(existing.ad.id);
    form.reset(valuesOf(existing.ad));
  }, [existing.ad, loadedAd, form]);
  // A new ad's contact starts as the user's contact methods, until the user changes it.
  const suggestedContact = allMethods.length <= CONTACT_MAX ? allMethods : (methodTexts[0] ?? '');
  useEffect(() => {
    if (editing || suggestedContact === '' || form.getFieldState('contact').isDirty || form.getValues('contact') !== '') return;
    form.setValue('contact', suggestedContact);
  }, [editing, suggestedContact, form]);

  const [fiat, quantity, price] = form.watch(['fiat', 'quantity', 'price']);
  const refusal = refused ? describeP2pRefusal(refused.message, refused.data, { amount: (value) => value, time: (value) => value }) : null;
  const quantityText = normaliseAmountInput(quantity);
  // Read as typed for the figures below, and for the one problem worth saying before the user
  // submits (more than the fiat account has); the whole form is checked on submit.
  const liveQuantityProblem = !editing && !buyAd && quantityText !== '' ? amountProblem(quantityText, { scale: P2P_SCALE, available }) : null;
  const quantityValid = quantityText !== '' && liveQuantityProblem === null && amountProblem(quantityText, { scale: P2P_SCALE }) === null;
  const worth = quantityValid ? fiatTotal(quantityText, price) : undefined;

  const usdtWords = { required: t('web.p2p.sell.problem.required'), asset: 'USDT', scale: P2P_SCALE };
  const own = {
    [p2pRules.minBelowFloor]: t('web.p2p.refusal.minBelowFloor', { floor: '1 USDT' }),
    [p2pRules.minAboveMax]: t('web.p2p.refusal.minAboveMax'),
    [p2pRules.minAboveQuantity]: t('web.p2p.refusal.minAboveTotal'),
    [p2pRules.remainingOnlyDown]: t('web.p2p.refusal.remainingOnlyDown', { remaining: format.amount(existing.ad?.remaining ?? '0', 'USDT') }),
  };
  const words: Record<AdField, MoneyErrorWords> = {
    fiat: { own: { [validationMessages.currencyCode]: t('web.p2p.sell.problem.fiat') } },
    price: { required: t('web.p2p.sell.problem.required'), asset: fiat, scale: FIAT_SCALE },
    min: { ...usdtWords, own },
    max: usdtWords,
    quantity: { ...usdtWords, own },
    paymentWindowMinutes: {},
    contact: { required: buyAd ? t('web.p2p.buyAd.contactRequired') : t('web.p2p.sell.problem.contactRequired') },
    remark: {},
  };

  // A field's own problem shows after the first submit (the balance at once); a refusal about a
  // field marks it too, its words being in the refusal notice above.
  const shown = (field: AdField) => {
    const own =
      errors[field] !== undefined
        ? // Whatever is wrong with the window (empty, not whole, out of range), its range says what fits.
          field === 'paymentWindowMinutes'
          ? t('web.p2p.sell.problem.window', { min: PAYMENT_WINDOW_MIN, max: PAYMENT_WINDOW_MAX })
          : errorText(errors[field], words[field])
        : field === 'quantity' && liveQuantityProblem === 'aboveAvailable'
          ? errorText({ message: `amount:${liveQuantityProblem}` }, words.quantity)
          : undefined;
    return own ?? (refusal?.field === field ? t('web.p2p.sell.problem.seeAbove') : undefined);
  };
  const field = (name: Exclude<AdField, 'fiat' | 'paymentWindowMinutes'>) => form.register(name, { onChange: () => setRefused(null) });

  const submit = form.handleSubmit(async ({ quantity: amount, ...terms }) => {
    setRefused(null);
    try {
      if (editing && editId) {
        const body = { ...terms, remaining: amount };
        await edit.mutateAsync({ params: { adId: editId }, body, idempotencyKey: actionKey.keyFor(JSON.stringify({ editId, body })) });
        actionKey.settle();
        toast(t('web.p2p.sell.saved'));
      } else {
        const body = { ...terms, side, total: amount };
        await post.mutateAsync({ body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
        actionKey.settle();
        toast(buyAd ? t('web.p2p.buyAd.posted') : t('web.p2p.sell.posted'));
      }
      navigate('/trade/shopping/trading/sell');
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      setRefused(refusedOf(error));
      reloadAccounts();
      void security.refetch();
    }
  });

  if (editing && existing.problem === 'notFound') {
    return (
      <Notice tone="error" testId="sell-ad-not-found">
        {t('web.p2p.sell.notFound')}
      </Notice>
    );
  }
  if (editing && existing.ad === null) {
    return existing.problem === 'failed' ? <LoadFailedNotice onRetry={existing.reload} /> : <p className="muted">{t('web.common.loading')}</p>;
  }
  if (editing && existing.ad && existing.ad.status !== 'open') {
    return (
      <Notice tone="warning" testId="sell-ad-closed">
        {t('web.p2p.sell.adClosed')}
      </Notice>
    );
  }

  return (
    <>
      {(loadFailed(security) || accountsFailed) && (
        <LoadFailedNotice
          onRetry={() => {
            void security.refetch();
            reloadAccounts();
          }}
        />
      )}
      {security.data && methods.length === 0 && (
        <Notice tone="warning" title={t('web.p2p.sell.noContactTitle')} testId="sell-no-contact">
          <p>{t('web.p2p.refusal.contact')}</p>
          <Link to="/safeSetting/contact" className="btn btn-primary btn-small" data-testid="sell-bind-contact">
            {t('web.p2p.refusal.contactLink')}
          </Link>
        </Notice>
      )}
      <form className="card form-card" onSubmit={submit} noValidate data-testid="sell-form" data-side={side}>
        {refused && <P2pRefusalNotice refused={refused} testId="sell-error" />}
        <Controller
          control={form.control}
          name="fiat"
          render={({ field: { value, onChange } }) => (
            <SelectField
              label={t('web.p2p.sell.fiat')}
              value={value}
              options={fiatOptions.some((option) => option.value === value) ? fiatOptions : [{ value, label: value }, ...fiatOptions]}
              testId="sell-fiat"
              error={shown('fiat')}
              onChange={(next) => {
                onChange(next);
                setRefused(null);
              }}
            />
          )}
        />
        <TextField
          label={t('web.p2p.sell.price', { fiat })}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          hint={buyAd ? t('web.p2p.buyAd.priceHint', { fiat }) : t('web.p2p.sell.priceHint', { fiat })}
          data-testid="sell-price"
          {...field('price')}
          error={shown('price')}
        />
        <div className="p2p-pair">
          <TextField label={t('web.p2p.sell.min')} inputMode="decimal" autoComplete="off" maxLength={40} data-testid="sell-min" {...field('min')} error={shown('min')} />
          <TextField label={t('web.p2p.sell.max')} inputMode="decimal" autoComplete="off" maxLength={40} data-testid="sell-max" {...field('max')} error={shown('max')} />
        </div>
        <p className="field-hint">{t('web.p2p.sell.limitsHint')}</p>
        {editing && existing.ad ? (
          <TextField
            label={buyAd ? t('web.p2p.buyAd.remaining') : t('web.p2p.sell.remaining')}
            inputMode="decimal"
            autoComplete="off"
            maxLength={40}
            hint={
              buyAd
                ? t('web.p2p.buyAd.remainingHint', { remaining: format.amount(existing.ad.remaining, 'USDT') })
                : t('web.p2p.sell.remainingHint', { remaining: format.amount(existing.ad.remaining, 'USDT') })
            }
            data-testid="sell-remaining"
            {...field('quantity')}
            error={shown('quantity')}
          />
        ) : buyAd ? (
          <TextField label={t('web.p2p.buyAd.total')} inputMode="decimal" autoComplete="off" maxLength={40} data-testid="sell-total" {...field('quantity')} error={shown('quantity')} />
        ) : (
          <div className="amount-field">
            <TextField label={t('web.p2p.sell.total')} inputMode="decimal" autoComplete="off" maxLength={40} data-testid="sell-total" {...field('quantity')} error={shown('quantity')} />
            <div className="amount-meta">
              <span className="muted">
                {t('web.p2p.availableFiat')} {available === undefined ? '…' : <Amount value={available} unit="USDT" testId="sell-available" />}
              </span>
              <Button
                variant="ghost"
                className="btn-small"
                disabled={available === undefined}
                data-testid="sell-all"
                onClick={() => {
                  if (available !== undefined) form.setValue('quantity', available, { shouldDirty: true, shouldValidate: isSubmitted });
                }}
              >
                {t('web.transfer.all')}
              </Button>
            </div>
            <Link to="/assets/transfer" className="btn btn-ghost btn-small" data-testid="sell-transfer">
              {t('web.p2p.transferToFiat')}
            </Link>
          </div>
        )}
        {!editing && buyAd && (
          <Notice tone="info" testId="buy-ad-hold-note">
            <div className="p2p-notice-text">
              <p>
                {quantityValid
                  ? tRich('web.p2p.buyAd.wantedAmount', { amount: <UsdtAmount key="amount" value={quantityText} testId="buy-ad-wanted" /> })
                  : t('web.p2p.buyAd.nothingHeld')}
              </p>
              <p>{t('web.p2p.buyAd.howItWorks')}</p>
              {worth && (
                <p data-testid="sell-worth">
                  {tRich('web.p2p.buyAd.worth', { amount: <FiatAmount key="amount" value={worth} fiat={fiat} /> })}
                </p>
              )}
            </div>
          </Notice>
        )}
        {!editing && !buyAd && (
          <Notice tone="info" testId="sell-escrow-note">
            <div className="p2p-notice-text">
              <p>
                {quantityValid
                  ? tRich('web.p2p.sell.frozenAmount', { amount: <UsdtAmount key="amount" value={quantityText} testId="sell-frozen" /> })
                  : t('web.p2p.sell.frozenNote')}
              </p>
              <p>{t('web.p2p.sell.frozenWhy')}</p>
              {worth && (
                <p data-testid="sell-worth">
                  {tRich('web.p2p.sell.worth', { amount: <FiatAmount key="amount" value={worth} fiat={fiat} /> })}
                </p>
              )}
            </div>
          </Notice>
        )}
        <TextField
          label={t('web.p2p.sell.window')}
          type="number"
          inputMode="numeric"
          min={PAYMENT_WINDOW_MIN}
          max={PAYMENT_WINDOW_MAX}
          step={1}
          hint={
            buyAd
              ? t('web.p2p.buyAd.windowHint', { min: PAYMENT_WINDOW_MIN, max: PAYMENT_WINDOW_MAX })
              : t('web.p2p.sell.windowHint', { min: PAYMENT_WINDOW_MIN, max: PAYMENT_WINDOW_MAX })
          }
          data-testid="sell-window"
          {...form.register('paymentWindowMinutes', { valueAsNumber: true, onChange: () => setRefused(null) })}
          error={shown('paymentWindowMinutes')}
        />
        {methodTexts.length > 1 && (
          <SelectField
            label={t('web.p2p.sell.contactPick')}
            value=""
            placeholder={t('web.p2p.sell.contactPickPlaceholder')}
            options={[
              ...(allMethods.length <= CONTACT_MAX ? [{ value: 'all', label: t('web.p2p.sell.contactAll') }] : []),
              ...methodTexts.map((text, index) => ({ value: String(index), label: text })),
            ]}
            testId="sell-contact-pick"
            onChange={(value) => {
              form.setValue('contact', value === 'all' ? allMethods : (methodTexts[Number(value)] ?? ''), { shouldDirty: true, shouldValidate: isSubmitted });
              setRefused(null);
            }}
          />
        )}
        <TextAreaField
          label={buyAd ? t('web.p2p.buyAd.contact') : t('web.p2p.sell.contact')}
          rows={2}
          maxLength={CONTACT_MAX}
          hint={buyAd ? t('web.p2p.buyAd.contactHint') : t('web.p2p.sell.contactHint')}
          testId="sell-contact"
          {...field('contact')}
          error={shown('contact')}
        />
        <TextAreaField
          label={t('web.p2p.sell.remark')}
          maxLength={REMARK_MAX}
          hint={buyAd ? t('web.p2p.buyAd.remarkHint') : t('web.p2p.sell.remarkHint')}
          testId="sell-remark"
          {...field('remark')}
          error={shown('remark')}
        />
        <Button type="submit" block busy={post.isPending || edit.isPending || post.isSuccess || edit.isSuccess} data-testid="sell-submit">
          {editing ? t('web.p2p.sell.save') : buyAd ? t('web.p2p.buyAd.submit') : t('web.p2p.sell.submit')}
        </Button>
      </form>
    </>
  );
}
