import {
  closeP2pAdContract,
  errorCatalogue,
  listAccountsContract,
  listP2pAdsContract,
  listP2pOrdersContract,
  listRecordsContract,
  placeP2pOrderContract,
} from '@keel/contracts';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, SelectField, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { PagedWalletList } from '../wallet/WalletList.tsx';
import { ConfirmAction, Time, useRefusalFormat } from '../wallet/WalletParts.tsx';
import { acceptableQuantity, buyFormSchema, fiatTotal, isFiatCode, maxBuyable, type P2pAdSide, P2P_SCALE, p2pRules } from './ad-form.ts';
import type { P2pAd } from './order-rules.ts';
import { EscrowNotice, FiatAmount, P2pRefusalNotice, type Refused, refusedOf, UsdtAmount, useFiatOptions } from './P2pParts.tsx';
import { SellIntoForm } from './SellIntoForm.tsx';

/** The terms every ad row shows: price per USDT, what is left, the order limits and the payment window. */
function AdTerms({ ad, showTotal }: { ad: P2pAd; showTotal?: boolean }) {
  const { t, tRich } = useI18n();
  return (
    <dl className="wallet-row-facts">
      <div>
        <dt>{t('web.p2p.ad.price')}</dt>
        <dd data-testid="ad-price" data-value={ad.price} data-fiat={ad.fiat}>
          {tRich('web.p2p.ad.pricePer', { price: <FiatAmount key="price" value={ad.price} fiat={ad.fiat} /> })}
        </dd>
      </div>
      {showTotal && (
        <div>
          <dt>{t('web.p2p.ad.total')}</dt>
          <dd>
            <UsdtAmount value={ad.total} testId="ad-total" />
          </dd>
        </div>
      )}
      <div>
        <dt>{ad.side === 'buy' ? (showTotal ? t('web.p2p.ad.stillWanted') : t('web.p2p.ad.wanted')) : showTotal ? t('web.p2p.ad.remaining') : t('web.p2p.ad.available')}</dt>
        <dd>
          <UsdtAmount value={ad.remaining} testId={showTotal ? 'ad-remaining' : 'ad-available'} />
        </dd>
      </div>
      <div>
        <dt>{t('web.p2p.ad.limits')}</dt>
        <dd data-testid="ad-limits" data-min={ad.min} data-max={ad.max}>
          <UsdtAmount value={ad.min} /> – <UsdtAmount value={ad.max} />
        </dd>
      </div>
      <div>
        <dt>{t('web.p2p.ad.window')}</dt>
        <dd data-testid="ad-window" data-minutes={ad.paymentWindowMinutes}>
          {t('web.p2p.ad.minutes', { minutes: ad.paymentWindowMinutes })}
        </dd>
      </div>
    </dl>
  );
}

/**
 * Buying from one ad, in place under it: the quantity (within min, max and what is left), what it
 * costs in the ad's currency, an optional note; placing the order moves no money — the seller's
 * coins are already in escrow — and the buyer goes on to the payment instructions.
 */
function BuyForm({ ad, onDone, onStale }: { ad: P2pAd; onDone: () => void; onStale: () => void }) {
  const { t, tRich } = useI18n();
  const navigate = useNavigate();
  const actionKey = useActionKey();
  const format = useRefusalFormat();
  const errorText = useMoneyErrorText();
  // The ad's terms on screen are the limits; a row that reloads with new terms checks against them.
  const schema = useMemo(() => buyFormSchema(ad), [ad]);
  const form = useContractForm(schema, { defaultValues: { quantity: '', remark: '' } });
  // Placing an order takes from the ad what it offers: the lists show it from then on.
  const place = useContractMutation(placeP2pOrderContract, { invalidates: [listP2pAdsContract, listP2pOrdersContract] });
  const [refused, setRefused] = useState<Refused | null>(null);
  const accepted = acceptableQuantity(form.watch('quantity'), ad);
  const total = accepted === null ? undefined : fiatTotal(accepted, ad.price);
  const quantityError = errorText(form.formState.errors.quantity, {
    required: t('web.p2p.buy.quantityRequired'),
    asset: 'USDT',
    scale: P2P_SCALE,
    own: {
      [p2pRules.belowMin]: t('web.p2p.buy.belowMin', { min: format.amount(ad.min, 'USDT') }),
      [p2pRules.aboveMax]: t('web.p2p.buy.aboveMax', { max: format.amount(ad.max, 'USDT') }),
      [p2pRules.aboveRemaining]: t('web.p2p.buy.aboveRemaining', { remaining: format.amount(ad.remaining, 'USDT') }),
    },
  });

  const submit = form.handleSubmit(async (values) => {
    setRefused(null);
    const body = { adId: ad.id, ...values };
    try {
      const order = await place.mutateAsync({ body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
      actionKey.settle();
      navigate(`/trade/shopping/trading/buy_pay/${order.id}`);
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      const refusal = refusedOf(error);
      setRefused(refusal);
      // The ad may have been lowered meanwhile: its row shows what it has now. (A closed ad keeps its
      // row until the next load, so the refusal stays readable next to it.)
      if (refusal.message === errorCatalogue.WRONG_PURCHASE_QUANTITY.msg) onStale();
    }
  });

  return (
    <form className="p2p-buy-form" onSubmit={submit} noValidate data-testid="buy-form">
      {refused && <P2pRefusalNotice refused={refused} testId="buy-error" />}
      <div className="amount-field">
        <TextField
          label={t('web.p2p.buy.quantity')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          placeholder={`${ad.min} – ${maxBuyable(ad)}`}
          data-testid="buy-quantity"
          {...form.register('quantity', { onChange: () => setRefused(null) })}
          error={quantityError}
        />
        <div className="amount-meta">
          <span className="muted">
            {tRich('web.p2p.buy.upTo', { amount: <UsdtAmount key="amount" value={maxBuyable(ad)} /> })}
          </span>
          <Button
            variant="ghost"
            className="btn-small"
            data-testid="buy-max"
            onClick={() => form.setValue('quantity', maxBuyable(ad), { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
          >
            {t('web.p2p.buy.max')}
          </Button>
        </div>
      </div>
      <dl className="facts">
        <div>
          <dt>{t('web.p2p.buy.youPay')}</dt>
          <dd data-testid="buy-total" data-value={total ?? ''}>
            {total ? <FiatAmount value={total} fiat={ad.fiat} /> : '—'}
          </dd>
        </div>
      </dl>
      <TextField
        label={t('web.p2p.buy.remark')}
        autoComplete="off"
        maxLength={200}
        data-testid="buy-remark"
        {...form.register('remark')}
        error={errorText(form.formState.errors.remark)}
      />
      <EscrowNotice testId="buy-escrow-note" />
      <div className="wallet-row-actions">
        <Button type="submit" busy={place.isPending || place.isSuccess} data-testid="buy-submit">
          {t('web.p2p.buy.submit')}
        </Button>
        <Button variant="ghost" onClick={onDone} data-testid="buy-cancel">
          {t('web.p2p.buy.close')}
        </Button>
      </div>
    </form>
  );
}

/**
 * One ad of the market: its owner, its terms and the action that takes its other side — "Buy" on a
 * sell ad, "Sell" on a buy ad — opening its form in place. One's own ads have no action.
 */
function AdRow({ ad, open, onToggle, onStale }: { ad: P2pAd; open: boolean; onToggle: () => void; onStale: () => void }) {
  const { t } = useI18n();
  const buyAd = ad.side === 'buy';
  return (
    <li className="wallet-row" data-testid={`ad-row-${ad.id}`} data-fiat={ad.fiat} data-side={ad.side}>
      <div className="wallet-row-head">
        <strong data-testid={buyAd ? 'ad-buyer' : 'ad-seller'}>{ad.ownerName}</strong>
        {ad.mine ? (
          <span className="state-badge" data-testid="ad-mine">
            {t('web.p2p.ad.yours')}
          </span>
        ) : (
          <Button
            className="btn-small"
            variant={open ? 'secondary' : 'primary'}
            aria-expanded={open}
            onClick={onToggle}
            data-testid={buyAd ? 'ad-sell' : 'ad-buy'}
          >
            {buyAd ? t('web.p2p.ad.sell') : t('web.p2p.ad.buy')}
          </Button>
        )}
      </div>
      <AdTerms ad={ad} />
      {ad.remark && (
        <p className="p2p-remark" data-testid="ad-remark">
          {ad.remark}
        </p>
      )}
      {open && !ad.mine && (buyAd ? <SellIntoForm ad={ad} onDone={onToggle} onStale={onStale} /> : <BuyForm ad={ad} onDone={onToggle} onStale={onStale} />)}
    </li>
  );
}

export const P2P_PAGE_SIZE = 20;

/**
 * The market of one side (issue 19): `sell` lists the open sell ads, cheapest first (the "Buy USDT"
 * view); `buy` the open buy ads, highest price first (the "Sell USDT" view). Filtered by currency
 * (kept in the address as `?fiat=`). Each row opens its form in place.
 */
export function AdMarket({ side }: { side: P2pAdSide }) {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const fiatOptions = useFiatOptions();
  const param = params.get('fiat');
  const fiat = isFiatCode(param) ? param : '';
  const [openId, setOpenId] = useState<string | null>(null);
  const list = usePagedQuery(listP2pAdsContract, { mine: 'false', side, ...(fiat ? { fiat } : {}) });
  // The test ids of the sell ads' list ("buy") stay as they were before buy ads.
  const prefix = side === 'sell' ? 'buy' : 'sell';

  return (
    <section className="p2p-section" data-testid={`${prefix}-list-section`}>
      <SelectField
        label={t('web.p2p.shop.fiatFilter')}
        value={fiat}
        options={[{ value: '', label: t('web.p2p.shop.allFiats') }, ...fiatOptions]}
        testId={`${prefix}-fiat-filter`}
        onChange={(value) => {
          const next = new URLSearchParams(params);
          if (value) next.set('fiat', value);
          else next.delete('fiat');
          next.delete('page');
          setParams(next, { replace: true });
        }}
      />
      <PagedWalletList list={list} emptyText={fiat ? t('web.p2p.shop.emptyFiat', { fiat }) : t('web.p2p.shop.empty')} testId={`${prefix}-list`}>
        {(ad) => (
          <AdRow
            key={ad.id}
            ad={ad}
            open={openId === ad.id}
            onToggle={() => setOpenId((current) => (current === ad.id ? null : ad.id))}
            onStale={list.reload}
          />
        )}
      </PagedWalletList>
    </section>
  );
}

/** The "Buy" list: open sell ads, best price first. */
export function BuyList() {
  return <AdMarket side="sell" />;
}

function MyAdRow({ ad, onClose, closing }: { ad: P2pAd; onClose: (ad: P2pAd) => void; closing: boolean }) {
  const { t, tRich } = useI18n();
  const open = ad.status === 'open';
  const buyAd = ad.side === 'buy';
  return (
    <li className={open ? 'wallet-row' : 'wallet-row is-muted'} data-testid={`ad-row-${ad.id}`} data-status={ad.status} data-side={ad.side}>
      <div className="wallet-row-head">
        <span className="p2p-ad-title">
          <span className="state-badge" data-testid="ad-side" data-side={ad.side}>
            {buyAd ? t('web.p2p.ad.sideBuy') : t('web.p2p.ad.sideSell')}
          </span>
          <strong data-testid="ad-fiat">{ad.fiat}</strong>
        </span>
        <span className={`state-badge wallet-status ${open ? 'wallet-status-good' : ''}`} data-testid="ad-status" data-status={ad.status}>
          {open ? t('web.p2p.ad.statusOpen') : t('web.p2p.ad.statusClosed')}
        </span>
      </div>
      <AdTerms ad={ad} showTotal />
      <p className="muted wallet-row-small">
        {tRich('web.p2p.ad.postedAt', { time: <Time key="time" iso={ad.createdAt} testId="ad-created" /> })}
      </p>
      {open && (
        <div className="wallet-row-actions">
          <Link to={`/trade/shopping/sell?ad=${ad.id}`} className="btn btn-secondary btn-small" data-testid="ad-edit">
            {t('web.p2p.ad.edit')}
          </Link>
          <ConfirmAction
            label={t('web.p2p.ad.close')}
            question={buyAd ? t('web.p2p.ad.closeQuestionBuy') : t('web.p2p.ad.closeQuestion')}
            confirmLabel={t('web.p2p.ad.closeConfirm')}
            busy={closing}
            onConfirm={() => onClose(ad)}
            testId="ad-close"
          />
        </div>
      )}
    </li>
  );
}

/**
 * "My ads": the user's ads of both sides, open and closed, each with its side and what it still
 * offers (a buy ad: still wants). Edit opens the ad form with the ad; closing a sell ad returns what
 * it still offers to the fiat account (its open orders keep their escrow until they end); a buy ad
 * holds nothing.
 */
export function MyAdsList() {
  const { t } = useI18n();
  const toast = useToast();
  const closeKey = useActionKey();
  const [closing, setClosing] = useState<string | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const list = usePagedQuery(listP2pAdsContract, { mine: 'true' });
  // Closing returns what the ad still offers to the fiat account.
  const closeAd = useContractMutation(closeP2pAdContract, { invalidates: [listP2pAdsContract, listAccountsContract, listRecordsContract] });

  async function close(ad: P2pAd) {
    setClosing(ad.id);
    setRefused(null);
    try {
      await closeAd.mutateAsync({ params: { adId: ad.id }, idempotencyKey: closeKey.keyFor(`close:${ad.id}`) });
      closeKey.settle();
      toast(ad.side === 'buy' ? t('web.p2p.ad.closedBuy') : t('web.p2p.ad.closed'));
    } catch (error) {
      closeKey.settle(error);
      if (isSessionError(error)) return;
      setRefused(refusedOf(error));
      // Closed meanwhile (or sold out): the list shows how it stands.
      list.reload();
    } finally {
      setClosing(null);
    }
  }

  return (
    <section className="p2p-section" data-testid="my-ads-section">
      {refused && <P2pRefusalNotice refused={refused} testId="my-ads-error" />}
      <PagedWalletList list={list} emptyText={t('web.p2p.myAds.empty')} testId="my-ads">
        {(ad) => <MyAdRow key={ad.id} ad={ad} closing={closing === ad.id} onClose={(each) => void close(each)} />}
      </PagedWalletList>
      <Link to="/trade/shopping/sell" className="btn btn-primary btn-block" data-testid="my-ads-post">
        {t('web.p2p.shop.postAnAd')}
      </Link>
    </section>
  );
}
