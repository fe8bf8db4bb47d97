import { editP2pAdContract, listP2pAdsContract, postP2pAdContract, securityOverviewContract } from '@keel/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useApiQuery } from '../../shared/api/useApiQuery.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { balanceOf } from '../assets/accounts.ts';
import { amountProblemText } from '../assets/amount-problems.ts';
import { AvailableWithAll } from '../assets/AvailableWithAll.tsx';
import { useAccounts } from '../assets/useAccounts.ts';
import { useRefusalFormat } from '../wallet/WalletParts.tsx';
import {
  type AdDraft,
  type AdField,
  type AdProblem,
  adBody,
  adFormProblems,
  CONTACT_MAX,
  FIAT_SCALE,
  fiatTotal,
  P2P_SCALE,
  PAYMENT_WINDOW_DEFAULT,
  PAYMENT_WINDOW_MAX,
  PAYMENT_WINDOW_MIN,
  REMARK_MAX,
} from './ad-form.ts';
import type { P2pAd } from './order-rules.ts';
import { describeP2pRefusal } from './p2p-refusal.ts';
import {
  contactKindKeys,
  FiatAmount,
  P2pRefusalNotice,
  type Refused,
  refusedOf,
  TextAreaField,
  UsdtAmount,
  useFiatOptions,
} from './P2pParts.tsx';

const MAX_PAGES_SEARCHED = 20;

/** One of the user's own ads, looked up in "my ads" (there is no call for a single ad). */
function useMyAd(adId: string | null) {
  const [ad, setAd] = useState<P2pAd | null>(null);
  const [problem, setProblem] = useState<'notFound' | 'failed' | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!adId) return;
    let current = true;
    void attempt;
    setProblem(null);
    (async () => {
      for (let page = 1; page <= MAX_PAGES_SEARCHED; page += 1) {
        const answer = await api(listP2pAdsContract, { query: { page, pageSize: 100, mine: 'true' } });
        const found = answer.items.find((each) => each.id === adId);
        if (found) return found;
        if (page * 100 >= answer.total) break;
      }
      return null;
    })()
      .then((found) => {
        if (!current) return;
        if (found) setAd(found);
        else setProblem('notFound');
      })
      .catch((error: unknown) => {
        if (current && !isSessionError(error)) setProblem('failed');
      });
    return () => {
      current = false;
    };
  }, [adId, attempt]);
  return { ad, problem, reload: () => setAttempt((value) => value + 1) };
}

const emptyDraft = (): AdDraft => ({
  fiat: 'INR',
  price: '',
  min: '',
  max: '',
  quantity: '',
  paymentWindow: String(PAYMENT_WINDOW_DEFAULT),
  contact: '',
  remark: '',
});

/** "10.000000" → "10", "12.500000" → "12.5": the server's fixed decimals, as a person would type them. */
const typed = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

const draftOf = (ad: P2pAd): AdDraft => ({
  fiat: ad.fiat,
  price: ad.price,
  min: typed(ad.min),
  max: typed(ad.max),
  quantity: typed(ad.remaining),
  paymentWindow: String(ad.paymentWindowMinutes),
  contact: ad.contact,
  remark: ad.remark,
});

/**
 * /trade/shopping/sell: post a sell ad (or, with `?ad={id}`, edit one of mine). The whole quantity
 * is frozen in escrow (a ledger hold) when the ad is posted, so every order on it is backed by coins
 * that cannot move elsewhere; what is not sold returns when the ad is lowered or closed. Selling
 * needs identity verification and a bound contact method (spec section 5); the contact is prefilled
 * from the user's P2P contact methods.
 */
export function SellAdForm({ editId }: { editId: string | null }) {
  const { t, tRich } = useI18n();
  const navigate = useNavigate();
  const toast = useToast();
  const actionKey = useActionKey();
  const format = useRefusalFormat();
  const fiatOptions = useFiatOptions();
  const security = useApiQuery(securityOverviewContract);
  const { accounts, failed: accountsFailed, reload: reloadAccounts } = useAccounts();
  const existing = useMyAd(editId);
  const editing = editId !== null;
  const [draft, setDraft] = useState<AdDraft>(emptyDraft);
  const [loadedAd, setLoadedAd] = useState<string | null>(null);
  const [contactTouched, setContactTouched] = useState(false);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);

  const methods = security.data?.contactMethods ?? [];
  const methodTexts = methods.map((method) => `${t(contactKindKeys[method.kind])}: ${method.value}`);
  const allMethods = methodTexts.join(' · ');

  // The ad being edited fills the form once it is found.
  if (existing.ad && loadedAd !== existing.ad.id) {
    setLoadedAd(existing.ad.id);
    setDraft(draftOf(existing.ad));
    setContactTouched(true);
  }
  // A new ad's contact starts as the user's contact methods, until the user changes it.
  if (!editing && !contactTouched && methodTexts.length > 0 && draft.contact === '') {
    setDraft((current) => ({ ...current, contact: allMethods.length <= CONTACT_MAX ? allMethods : (methodTexts[0] ?? '') }));
  }

  const available = accounts ? (balanceOf(accounts, 'coin', 'USDT')?.available ?? '0') : undefined;
  const problems = adFormProblems(draft, editing ? { mode: 'edit', currentRemaining: existing.ad?.remaining } : { mode: 'post', available });
  const refusal = refused ? describeP2pRefusal(refused.message, refused.data, { amount: (value) => value, time: (value) => value }) : null;
  const quantityValid = problems.quantity === undefined && draft.quantity.trim() !== '';
  const worth = quantityValid && problems.price === undefined ? fiatTotal(draft.quantity, draft.price) : undefined;

  function set(field: AdField, value: string) {
    setDraft((current) => ({ ...current, [field]: value }));
    setRefused(null);
  }

  function problemText(field: AdField, problem: AdProblem | undefined): string | undefined {
    switch (problem) {
      case undefined:
        return undefined;
      case 'fiat':
        return t('web.p2p.sell.problem.fiat');
      case 'minBelowFloor':
        return t('web.p2p.refusal.minBelowFloor', { floor: '1 USDT' });
      case 'minAboveMax':
        return t('web.p2p.refusal.minAboveMax');
      case 'minAboveQuantity':
        return t('web.p2p.refusal.minAboveTotal');
      case 'remainingOnlyDown':
        return t('web.p2p.refusal.remainingOnlyDown', { remaining: format.amount(existing.ad?.remaining ?? '0', 'USDT') });
      case 'windowRange':
        return t('web.p2p.sell.problem.window', { min: PAYMENT_WINDOW_MIN, max: PAYMENT_WINDOW_MAX });
      case 'tooLong':
        return t('web.p2p.sell.problem.tooLong', { max: field === 'contact' ? CONTACT_MAX : REMARK_MAX });
      case 'plainText':
        return t('web.p2p.sell.problem.plainText');
      case 'required':
        return field === 'contact' ? t('web.p2p.sell.problem.contactRequired') : t('web.p2p.sell.problem.required');
      default:
        return amountProblemText(t, problem, {
          asset: field === 'price' ? draft.fiat : 'USDT',
          scale: field === 'price' ? FIAT_SCALE : P2P_SCALE,
          requiredText: t('web.p2p.sell.problem.required'),
        });
    }
  }

  // A field's own problem shows after the first submit (the balance at once); a refusal about a
  // field marks it too, its words being in the refusal notice above.
  const shown = (field: AdField) => {
    const own = checked || (field === 'quantity' && problems.quantity === 'aboveAvailable') ? problemText(field, problems[field]) : undefined;
    return own ?? (refusal?.field === field ? t('web.p2p.sell.problem.seeAbove') : undefined);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    setRefused(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      if (editing && editId) {
        const body = { ...adBody(draft), remaining: normaliseAmountInput(draft.quantity) };
        await api(editP2pAdContract, { params: { adId: editId }, body, idempotencyKey: actionKey.keyFor(JSON.stringify({ editId, body })) });
        actionKey.settle();
        toast(t('web.p2p.sell.saved'));
      } else {
        const body = { ...adBody(draft), total: normaliseAmountInput(draft.quantity) };
        await api(postP2pAdContract, { body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
        actionKey.settle();
        toast(t('web.p2p.sell.posted'));
      }
      navigate('/trade/shopping/trading/sell');
    } catch (error) {
      actionKey.settle(error);
      setBusy(false);
      if (isSessionError(error)) return;
      setRefused(refusedOf(error));
      reloadAccounts();
      security.reload();
    }
  }

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
      {(security.failed || accountsFailed) && (
        <LoadFailedNotice
          onRetry={() => {
            security.reload();
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
      <form className="card form-card" onSubmit={submit} noValidate data-testid="sell-form">
        {refused && <P2pRefusalNotice refused={refused} testId="sell-error" />}
        <SelectField
          label={t('web.p2p.sell.fiat')}
          value={draft.fiat}
          options={fiatOptions.some((option) => option.value === draft.fiat) ? fiatOptions : [{ value: draft.fiat, label: draft.fiat }, ...fiatOptions]}
          testId="sell-fiat"
          error={checked ? problemText('fiat', problems.fiat) : undefined}
          onChange={(value) => set('fiat', value)}
        />
        <TextField
          label={t('web.p2p.sell.price', { fiat: draft.fiat })}
          name="price"
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          value={draft.price}
          hint={t('web.p2p.sell.priceHint', { fiat: draft.fiat })}
          data-testid="sell-price"
          onChange={(event) => set('price', event.target.value)}
          error={shown('price')}
        />
        <div className="p2p-pair">
          <TextField
            label={t('web.p2p.sell.min')}
            name="min"
            inputMode="decimal"
            autoComplete="off"
            maxLength={40}
            value={draft.min}
            data-testid="sell-min"
            onChange={(event) => set('min', event.target.value)}
            error={shown('min')}
          />
          <TextField
            label={t('web.p2p.sell.max')}
            name="max"
            inputMode="decimal"
            autoComplete="off"
            maxLength={40}
            value={draft.max}
            data-testid="sell-max"
            onChange={(event) => set('max', event.target.value)}
            error={shown('max')}
          />
        </div>
        <p className="field-hint">{t('web.p2p.sell.limitsHint')}</p>
        {editing && existing.ad ? (
          <TextField
            label={t('web.p2p.sell.remaining')}
            name="remaining"
            inputMode="decimal"
            autoComplete="off"
            maxLength={40}
            value={draft.quantity}
            hint={t('web.p2p.sell.remainingHint', { remaining: format.amount(existing.ad.remaining, 'USDT') })}
            data-testid="sell-remaining"
            onChange={(event) => set('quantity', event.target.value)}
            error={shown('quantity')}
          />
        ) : (
          <div className="amount-field">
            <TextField
              label={t('web.p2p.sell.total')}
              name="total"
              inputMode="decimal"
              autoComplete="off"
              maxLength={40}
              value={draft.quantity}
              data-testid="sell-total"
              onChange={(event) => set('quantity', event.target.value)}
              error={shown('quantity')}
            />
            <AvailableWithAll available={available} asset="USDT" testIdPrefix="sell" onAll={(all) => set('quantity', all)} />
          </div>
        )}
        {!editing && (
          <Notice tone="info" testId="sell-escrow-note">
            <div className="p2p-notice-text">
              <p>
                {quantityValid
                  ? tRich('web.p2p.sell.frozenAmount', { amount: <UsdtAmount key="amount" value={normaliseAmountInput(draft.quantity)} testId="sell-frozen" /> })
                  : t('web.p2p.sell.frozenNote')}
              </p>
              <p>{t('web.p2p.sell.frozenWhy')}</p>
              {worth && (
                <p data-testid="sell-worth">
                  {tRich('web.p2p.sell.worth', { amount: <FiatAmount key="amount" value={worth} fiat={draft.fiat} /> })}
                </p>
              )}
            </div>
          </Notice>
        )}
        <TextField
          label={t('web.p2p.sell.window')}
          name="paymentWindow"
          type="number"
          inputMode="numeric"
          min={PAYMENT_WINDOW_MIN}
          max={PAYMENT_WINDOW_MAX}
          step={1}
          value={draft.paymentWindow}
          hint={t('web.p2p.sell.windowHint', { min: PAYMENT_WINDOW_MIN, max: PAYMENT_WINDOW_MAX })}
          data-testid="sell-window"
          onChange={(event) => set('paymentWindow', event.target.value)}
          error={checked ? problemText('paymentWindow', problems.paymentWindow) : undefined}
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
              setContactTouched(true);
              set('contact', value === 'all' ? allMethods : (methodTexts[Number(value)] ?? ''));
            }}
          />
        )}
        <TextAreaField
          label={t('web.p2p.sell.contact')}
          name="contact"
          rows={2}
          maxLength={CONTACT_MAX}
          value={draft.contact}
          hint={t('web.p2p.sell.contactHint')}
          testId="sell-contact"
          onChange={(value) => {
            setContactTouched(true);
            set('contact', value);
          }}
          error={checked ? problemText('contact', problems.contact) : undefined}
        />
        <TextAreaField
          label={t('web.p2p.sell.remark')}
          name="remark"
          maxLength={REMARK_MAX}
          value={draft.remark}
          hint={t('web.p2p.sell.remarkHint')}
          testId="sell-remark"
          onChange={(value) => set('remark', value)}
          error={checked ? problemText('remark', problems.remark) : undefined}
        />
        <Button type="submit" block busy={busy} data-testid="sell-submit">
          {editing ? t('web.p2p.sell.save') : t('web.p2p.sell.submit')}
        </Button>
      </form>
    </>
  );
}
