import {
  ApiError,
  type ContractData,
  createSwapQuoteContract,
  executeSwapContract,
  listAccountsContract,
  listRecordsContract,
  swapDirectionBodySchema,
  swapQuoteSchema,
} from '@keel/contracts';
import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { applyRefusal, FormError, useContractForm } from '../../shared/forms/index.ts';
import { bpsToPercent, formatDecimal } from '../../shared/format/decimal.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { ArrowIcon, ClockIcon } from '../../shared/ui/icons.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { type AccountKind, accountKindKeys, type AssetCode, assetCodes, balanceOf, offeredAccountKinds, scaleOf } from '../assets/accounts.ts';
import { type AmountLimits, amountField } from '../assets/amount-field.ts';
import { AvailableWithAll } from '../assets/AvailableWithAll.tsx';
import { useAccounts } from '../assets/useAccounts.ts';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { type HeldQuote, holdQuote, isExpired, secondsLeft } from './quote-clock.ts';

type Executed = ContractData<typeof executeSwapContract>;
type SwapDirection = { account: AccountKind; fromAsset: AssetCode; toAsset: AssetCode; amount: string };

/** Rates carry 12 decimals so that amount × rate = gross receipt can be checked by hand. */
const RATE_DECIMALS = 12;

function QuoteDetails({ held, now, onRequote, requoting }: { held: HeldQuote; now: number; onRequote: () => void; requoting: boolean }) {
  const { t, locale } = useI18n();
  const { quote } = held;
  const percent = (bps: number) => formatDecimal(bpsToPercent(bps), locale, { minFractionDigits: 2 });
  const left = secondsLeft(held, now);
  const expired = isExpired(held, now);
  const ttlSeconds = Math.max(1, Math.round((quote.expiresAtMs - quote.createdAtMs) / 1000));
  return (
    <div className="quote" data-testid="swap-quote" data-quote-id={quote.quoteId}>
      <div className={expired ? 'quote-timer expired' : 'quote-timer'}>
        <ClockIcon />
        {expired ? (
          <span role="status" data-testid="swap-expired">
            {t('web.swap.expired')}
          </span>
        ) : (
          <span data-testid="swap-countdown" data-seconds={left}>
            {t('web.swap.validFor', { seconds: left })}
          </span>
        )}
        <span
          className="quote-timer-bar"
          role="progressbar"
          aria-label={t('web.swap.timeLeft')}
          aria-valuemin={0}
          aria-valuemax={ttlSeconds}
          aria-valuenow={left}
          style={{ inlineSize: `${(100 * left) / ttlSeconds}%` }}
        />
      </div>
      <dl className="facts">
        <div>
          <dt>{t('web.swap.rate')}</dt>
          <dd data-testid="swap-rate">
            <bdi dir="ltr" className="num num-wrap">
              1 {quote.fromAsset} = <Amount value={quote.rate} max={RATE_DECIMALS} unit={quote.toAsset} />
            </bdi>
          </dd>
        </div>
        <div>
          <dt>{t('web.swap.midRate')}</dt>
          <dd data-testid="swap-mid-rate">
            <bdi dir="ltr" className="num num-wrap">
              1 {quote.fromAsset} = <Amount value={quote.midRate} max={RATE_DECIMALS} unit={quote.toAsset} />
            </bdi>
          </dd>
        </div>
        <div>
          <dt>{t('web.swap.spread')}</dt>
          <dd data-testid="swap-spread">{t('web.swap.spreadValue', { percent: percent(quote.spreadBps) })}</dd>
        </div>
        <div>
          <dt>{t('web.swap.gross')}</dt>
          <dd>
            <Amount value={quote.grossReceive} unit={quote.toAsset} />
          </dd>
        </div>
        <div>
          <dt>{t('web.swap.fee', { percent: percent(quote.feeBps) })}</dt>
          <dd data-testid="swap-fee">
            <Amount value={quote.fee} unit={quote.toAsset} />
          </dd>
        </div>
        {quote.vipDiscountBps > 0 && (
          <div data-testid="swap-vip">
            <dt>{t('web.swap.vipDiscount', { level: quote.vipLevel, percent: percent(quote.vipDiscountBps) })}</dt>
            <dd>
              <span data-testid="swap-fee-before">
                <Amount value={quote.feeBeforeDiscount} unit={quote.toAsset} />
              </span>{' '}
              − <Amount value={quote.vipDiscount} unit={quote.toAsset} testId="swap-vip-discount" />
            </dd>
          </div>
        )}
        <div className="facts-strong">
          <dt>{t('web.swap.estimatedReceipt')}</dt>
          <dd>
            <Amount value={quote.estimatedReceive} unit={quote.toAsset} testId="swap-estimate" />
          </dd>
        </div>
      </dl>
      <details className="quote-ticks" open>
        <summary>{t('web.swap.ticksUsed')}</summary>
        <ul>
          {quote.ticks.map((tick) => (
            <li key={tick.tickId} data-testid="swap-tick">
              <span>
                <bdi dir="ltr">{tick.symbol}</bdi> <Amount value={tick.price} max={8} />
              </span>
              <span className="muted">
                {t('web.swap.tickMeta', { time: formatDateTime(new Date(tick.atMs).toISOString()), source: tick.source, id: tick.tickId })}
              </span>
            </li>
          ))}
        </ul>
        {quote.fromAsset === 'USDT' || quote.toAsset === 'USDT' ? (
          <p className="field-hint">{t('web.swap.usdtIsOne')}</p>
        ) : null}
      </details>
      {expired && (
        <Button variant="secondary" block busy={requoting} onClick={onRequote} data-testid="swap-requote">
          {t('web.swap.newQuote')}
        </Button>
      )}
    </div>
  );
}

/**
 * The swap (flash exchange) between USDT, BTC and ETH within one account type: amount → quote
 * (rate, mid rate, spread, fee, receipt and the recorded ticks, held 10 s) → confirm. With
 * `account` set (the coin account for /assets/flashExchange) the source wallet is fixed; without
 * it (/assets/conversion) the user picks it. The form is the quote contract's body, its amount
 * checked against the asset's scale and the wallet's balance (`amountField`).
 */
export function SwapForm({ account: fixedAccount }: { account?: AccountKind }) {
  const { t, tServer } = useI18n();
  const errorText = useMoneyErrorText();
  const { accounts, failed, reload } = useAccounts();
  // A quote moves no money and is held by this form only (it expires in 10 s): a mutation, not a
  // cached query. Executing it changes two balances and adds a record.
  const quoteCall = useContractMutation(createSwapQuoteContract);
  const execute = useContractMutation(executeSwapContract, { invalidates: [listAccountsContract, listRecordsContract] });
  const actionKey = useActionKey();
  // The amount's limits depend on the wallet and the currency chosen: the schema reads them when it checks.
  const limits = useRef<AmountLimits>({ scale: scaleOf('USDT') });
  const schema = useMemo(() => swapDirectionBodySchema.safeExtend({ amount: amountField(() => limits.current) }), []);
  const form = useContractForm(schema, {
    defaultValues: { account: fixedAccount ?? 'coin', fromAsset: 'USDT', toAsset: 'BTC', amount: '' } satisfies SwapDirection,
  });
  const [account, fromAsset, toAsset] = form.watch(['account', 'fromAsset', 'toAsset']) as [AccountKind, AssetCode, AssetCode];
  const [held, setHeld] = useState<HeldQuote | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [executed, setExecuted] = useState<Executed | null>(null);
  const now = useNow(held !== null);

  const available = balanceOf(accounts, account, fromAsset)?.available;
  const scale = scaleOf(fromAsset, accounts ?? undefined);
  limits.current = { scale, available };
  const expired = held !== null && isExpired(held, now);

  /** A change makes the quote, the refusal and the last result out of date. */
  function edited() {
    setHeld(null);
    form.clearErrors('root');
    setNotice(null);
    setExecuted(null);
  }

  function set(name: 'account' | 'fromAsset' | 'toAsset' | 'amount', value: string) {
    form.setValue(name, value as never, { shouldValidate: form.formState.isSubmitted, shouldDirty: true });
    edited();
  }

  async function requestQuote(body: SwapDirection) {
    const sentAt = Date.now();
    try {
      const quote = await quoteCall.mutateAsync({ body });
      setHeld(holdQuote(quote, sentAt));
    } catch (error) {
      setHeld(null);
      applyRefusal(form, error, { fieldErrors: { WRONG_AMOUNT: 'amount' } });
    }
  }

  const submitQuote = form.handleSubmit((body) => {
    setExecuted(null);
    setNotice(null);
    return requestQuote(body);
  });

  function requote() {
    if (!held) return;
    setNotice(null);
    form.clearErrors('root');
    const { quote } = held;
    void requestQuote({ account: quote.account, fromAsset: quote.fromAsset, toAsset: quote.toAsset, amount: quote.amount });
  }

  async function confirm() {
    if (!held || expired) return;
    const quoteId = held.quote.quoteId;
    form.clearErrors('root');
    setNotice(null);
    const sentAt = Date.now();
    try {
      const answer = await execute.mutateAsync({ body: { quoteId }, idempotencyKey: actionKey.keyFor(quoteId) });
      actionKey.settle();
      setExecuted(answer);
      setHeld(null);
      form.reset({ ...form.getValues(), amount: '' });
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      if (error instanceof ApiError && error.data && typeof error.data === 'object' && 'freshQuote' in error.data) {
        // Refused for expiry: the server priced the same swap again; show that quote instead.
        const fresh = swapQuoteSchema.safeParse((error.data as { freshQuote: unknown }).freshQuote);
        if (fresh.success) {
          setHeld(holdQuote(fresh.data, sentAt));
          setNotice(tServer(error.message));
          return;
        }
      }
      applyRefusal(form, error);
    }
  }

  return (
    <>
      {failed && <LoadFailedNotice onRetry={reload} />}
      {executed && (
        <Card className="result-card">
          <Notice testId="swap-result">
            {t('web.swap.done')}{' '}
            <bdi dir="ltr" className="num swap-pair">
              <Amount value={executed.quote.amount} unit={executed.quote.fromAsset} /> <ArrowIcon />{' '}
              <Amount value={executed.received} unit={executed.quote.toAsset} testId="swap-result-received" />
            </bdi>
          </Notice>
          <dl className="facts">
            <div>
              <dt>{t('web.swap.balanceOf', { asset: executed.from.asset, account: t(accountKindKeys[executed.from.kind]) })}</dt>
              <dd>
                <Amount value={executed.from.available} unit={executed.from.asset} testId="swap-result-from" />
              </dd>
            </div>
            <div>
              <dt>{t('web.swap.balanceOf', { asset: executed.to.asset, account: t(accountKindKeys[executed.to.kind]) })}</dt>
              <dd>
                <Amount value={executed.to.available} unit={executed.to.asset} testId="swap-result-to" />
              </dd>
            </div>
          </dl>
          <Link to="/assets/records" className="btn btn-secondary btn-block">
            {t('web.swap.seeRecords')}
          </Link>
        </Card>
      )}
      <form className="card form-card" onSubmit={submitQuote} noValidate>
        {fixedAccount ? (
          <dl className="facts">
            <div>
              <dt>{t('web.swap.wallet')}</dt>
              <dd data-testid="swap-wallet">{t(accountKindKeys[fixedAccount])}</dd>
            </div>
          </dl>
        ) : (
          <SelectField
            label={t('web.swap.wallet')}
            value={account}
            options={offeredAccountKinds(accounts).map((kind) => ({ value: kind, label: t(accountKindKeys[kind]) }))}
            testId="swap-account"
            onChange={(value) => set('account', value)}
          />
        )}
        <div className="swap-assets">
          <SelectField
            label={t('web.swap.from')}
            value={fromAsset}
            options={assetCodes.map((code) => ({ value: code, label: code }))}
            testId="swap-from"
            onChange={(value) => {
              if (value === toAsset) set('toAsset', fromAsset);
              set('fromAsset', value);
            }}
          />
          <span className="swap-assets-arrow">
            <ArrowIcon />
          </span>
          <SelectField
            label={t('web.swap.to')}
            value={toAsset}
            options={assetCodes.map((code) => ({ value: code, label: code, disabled: code === fromAsset }))}
            testId="swap-to"
            error={errorText(form.formState.errors.toAsset)}
            onChange={(value) => {
              if (value !== fromAsset) set('toAsset', value);
            }}
          />
        </div>
        <div className="amount-field">
          <TextField
            label={t('web.swap.amount', { asset: fromAsset })}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('web.transfer.amountPlaceholder')}
            maxLength={40}
            data-testid="swap-amount"
            {...form.register('amount', { onChange: edited })}
            error={errorText(form.formState.errors.amount, { required: t('web.swap.quantityRequired'), asset: fromAsset, scale })}
          />
          <AvailableWithAll available={available} asset={fromAsset} testIdPrefix="swap" onAll={(all) => set('amount', all)} />
        </div>
        <FormError form={form} />
        {notice && (
          <Notice tone="warning" testId="swap-notice">
            {notice}
          </Notice>
        )}
        {held ? (
          <>
            <QuoteDetails held={held} now={now} onRequote={requote} requoting={quoteCall.isPending} />
            <Button block busy={execute.isPending} disabled={expired} onClick={() => void confirm()} data-testid="swap-confirm">
              {t('web.swap.confirm')}
            </Button>
          </>
        ) : (
          <Button type="submit" block busy={quoteCall.isPending} data-testid="swap-get-quote">
            {t('web.swap.getQuote')}
          </Button>
        )}
      </form>
    </>
  );
}
