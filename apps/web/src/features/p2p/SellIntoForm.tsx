import {
  errorCatalogue,
  listAccountsContract,
  listP2pAdsContract,
  listP2pOrdersContract,
  listRecordsContract,
  placeP2pOrderContract,
} from '@keel/contracts';
import { useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { applyRefusal, FormError, useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, TextField } from '../../shared/ui/components.tsx';
import { balanceOf } from '../assets/accounts.ts';
import { useAccounts } from '../assets/useAccounts.ts';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { useRefusalFormat } from '../wallet/WalletParts.tsx';
import { acceptableQuantity, CONTACT_MAX, fiatTotal, maxSellable, P2P_SCALE, p2pRules, sellIntoFormSchema } from './ad-form.ts';
import { orderPath, type P2pAd } from './order-rules.ts';
import { describeP2pRefusal } from './p2p-refusal.ts';
import { FiatAmount, P2pRefusalNotice, type Refused, refusedOf, TextAreaField, UsdtAmount } from './P2pParts.tsx';

const ORDER_REMARK_MAX = 200;

/**
 * Selling into a buy ad, in place under it (issue 19): the quantity (within the ad's min, max and
 * what it still wants, and the fiat account's available USDT — P2P trades from the fiat account),
 * what the buyer pays for it in the ad's currency, the seller's payment details (where the buyer
 * pays, required) and an optional note. Placing the order holds the quantity from the seller's fiat
 * account until the order ends; the seller then waits for the payment on the order's page and
 * releases it there. Next to the balance, a link to move USDT to the fiat account.
 */
export function SellIntoForm({ ad, onDone, onStale }: { ad: P2pAd; onDone: () => void; onStale: () => void }) {
  const { t, tRich } = useI18n();
  const navigate = useNavigate();
  const actionKey = useActionKey();
  const format = useRefusalFormat();
  const errorText = useMoneyErrorText();
  const { accounts, reload: reloadAccounts } = useAccounts();
  const available = accounts ? (balanceOf(accounts, 'fiat', 'USDT')?.available ?? '0') : undefined;
  // The schema reads the balance on screen when it checks; the ad's terms on screen are the limits.
  const balance = useRef(available);
  balance.current = available;
  const schema = useMemo(() => sellIntoFormSchema(ad, () => balance.current), [ad]);
  const form = useContractForm(schema, { defaultValues: { quantity: '', contact: '', remark: '' } });
  // Selling holds the quantity from the fiat account: balances and records change with the lists.
  const place = useContractMutation(placeP2pOrderContract, { invalidates: [listP2pAdsContract, listP2pOrdersContract, listAccountsContract, listRecordsContract] });
  const [refused, setRefused] = useState<Refused | null>(null);
  const { errors, isSubmitted } = form.formState;
  const accepted = acceptableQuantity(form.watch('quantity'), ad);
  const total = accepted === null ? undefined : fiatTotal(accepted, ad.price);
  const most = maxSellable(ad, available);
  const refusal = refused ? describeP2pRefusal(refused.message, refused.data, format, { adSide: 'buy' }) : null;
  const seeAbove = (field: 'quantity' | 'contact') => (refusal?.field === field ? t('web.p2p.sell.problem.seeAbove') : undefined);

  const quantityError =
    errorText(errors.quantity, {
      required: t('web.p2p.sellInto.quantityRequired'),
      asset: 'USDT',
      scale: P2P_SCALE,
      own: {
        [p2pRules.belowMin]: t('web.p2p.buy.belowMin', { min: format.amount(ad.min, 'USDT') }),
        [p2pRules.aboveMax]: t('web.p2p.buy.aboveMax', { max: format.amount(ad.max, 'USDT') }),
        [p2pRules.aboveRemaining]: t('web.p2p.sellInto.aboveRemaining', { remaining: format.amount(ad.remaining, 'USDT') }),
      },
    }) ?? seeAbove('quantity');
  const contactError = errorText(errors.contact, { required: t('web.p2p.sellInto.contactRequired') });

  const submit = form.handleSubmit(async (values) => {
    setRefused(null);
    const body = { adId: ad.id, ...values };
    try {
      const order = await place.mutateAsync({ body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
      actionKey.settle();
      navigate(orderPath(order));
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      const refusal = refusedOf(error);
      // A field the server names (no payment details) goes on that field; the rest above the form.
      if (refusal.message === errorCatalogue.PARAMETER_ERROR.msg) {
        applyRefusal(form, error);
        return;
      }
      setRefused(refusal);
      reloadAccounts();
      // The ad may have been lowered meanwhile: its row shows what it wants now.
      if (refusal.message === errorCatalogue.WRONG_PURCHASE_QUANTITY.msg) onStale();
    }
  });

  return (
    <form className="p2p-buy-form" onSubmit={submit} noValidate data-testid="sell-into-form">
      {refused && <P2pRefusalNotice refused={refused} testId="sell-into-error" context={{ adSide: 'buy' }} />}
      <FormError form={form} />
      <div className="amount-field">
        <TextField
          label={t('web.p2p.sellInto.quantity')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          placeholder={`${ad.min} – ${most ?? ad.max}`}
          data-testid="sell-into-quantity"
          {...form.register('quantity', { onChange: () => setRefused(null) })}
          error={quantityError}
        />
        <div className="amount-meta">
          <span className="muted">
            {t('web.p2p.availableFiat')} {available === undefined ? '…' : <UsdtAmount value={available} testId="sell-into-available" />}
          </span>
          <Button
            variant="ghost"
            className="btn-small"
            disabled={most === undefined}
            data-testid="sell-into-max"
            onClick={() => {
              if (most !== undefined) form.setValue('quantity', most, { shouldDirty: true, shouldValidate: isSubmitted });
            }}
          >
            {t('web.p2p.buy.max')}
          </Button>
        </div>
        <Link to="/assets/transfer" className="btn btn-ghost btn-small" data-testid="sell-into-transfer">
          {t('web.p2p.transferToFiat')}
        </Link>
      </div>
      <dl className="facts">
        <div>
          <dt>{t('web.p2p.sellInto.buyerPays')}</dt>
          <dd data-testid="sell-into-total" data-value={total ?? ''}>
            {total ? <FiatAmount value={total} fiat={ad.fiat} /> : '—'}
          </dd>
        </div>
      </dl>
      <TextAreaField
        label={t('web.p2p.sellInto.contact')}
        rows={2}
        maxLength={CONTACT_MAX}
        hint={t('web.p2p.sellInto.contactHint')}
        testId="sell-into-contact"
        {...form.register('contact', { onChange: () => setRefused(null) })}
        error={contactError ?? seeAbove('contact')}
      />
      <TextField
        label={t('web.p2p.sellInto.remark')}
        autoComplete="off"
        maxLength={ORDER_REMARK_MAX}
        data-testid="sell-into-remark"
        {...form.register('remark')}
        error={errorText(errors.remark)}
      />
      <Notice tone="info" title={t('web.p2p.sellInto.holdTitle')} testId="sell-into-hold-note">
        <div className="p2p-notice-text">
          <p>
            {accepted
              ? tRich('web.p2p.sellInto.heldAmount', { amount: <UsdtAmount key="amount" value={accepted} testId="sell-into-held" /> })
              : t('web.p2p.sellInto.heldNote')}
          </p>
          <p>{t('web.p2p.sellInto.releaseNote')}</p>
          <p>{t('web.p2p.escrow.neverPayKeel')}</p>
        </div>
      </Notice>
      <div className="wallet-row-actions">
        <Button type="submit" busy={place.isPending || place.isSuccess} data-testid="sell-into-submit">
          {t('web.p2p.sellInto.submit')}
        </Button>
        <Button variant="ghost" onClick={onDone} data-testid="sell-into-cancel">
          {t('web.p2p.buy.close')}
        </Button>
      </div>
    </form>
  );
}
