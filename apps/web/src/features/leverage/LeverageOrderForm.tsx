import {
  acceptLeverageDisclosureContract,
  ApiError,
  errorKeyFromMsg,
  getLeverageOverviewContract,
  type LeverageOverview,
  type LeverageLimitOrder,
  type LeveragePosition,
  listAccountsContract,
  listLimitOrdersContract,
  listPositionsContract,
  listRecordsContract,
  openPositionContract,
  placeLimitOrderContract,
} from '@keel/contracts';
import { MARGIN_SCALE } from '@keel/domain';
import { invalidateContracts } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { useContractForm } from '../../shared/forms/index.ts';
import { formatDecimal, normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import type { RecordedTick } from '../../shared/realtime/realtime.ts';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Notice, Segmented, TextField } from '../../shared/ui/components.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { TickFacts } from '../options/OptionsParts.tsx';
import { Sheet } from '../options/Sheet.tsx';
import {
  clampLeverage,
  type LeverageProduct,
  leverageCap,
  type OrderPreview,
  type OrderQuote,
  type OrderType,
  orderPreview,
  usdtMinorOf,
} from './leverage-logic.ts';
import { LeverageTag, productKeys, SideTag, sideKeys, useNumberText } from './LeverageParts.tsx';
import { leverageProblems, limitBody, openBody, type OrderLimits, type OrderValues, orderFormSchema } from './order-form.ts';

/** The leverages offered as one-press choices beside the slider, per product (the slider takes any). */
const presets: Record<LeverageProduct, readonly number[]> = {
  futures: [1, 5, 10, 20, 50, 100],
  leveraged: [1, 2, 3, 5, 10],
};
const DEFAULT_LEVERAGE = 5;

/** A refusal as the confirmation shows it. */
interface OrderError {
  message: string;
}

type Step = { kind: 'disclosure' | 'confirm'; type: OrderType; values: OrderValues } | null;

/** What the form last sent, as its notice says it. */
type Done = { kind: 'opened'; position: LeveragePosition } | { kind: 'placed'; order: LeverageLimitOrder };

/** The risk disclosure of leveraged and futures trading: read and accepted once, before the first order (versioned). */
export function LeverageDisclosureSheet({ version, onAccepted, onClose }: { version: number; onAccepted: () => void; onClose: () => void }) {
  const { t, tServer } = useI18n();
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const accept = useContractMutation(acceptLeverageDisclosureContract, { invalidates: [getLeverageOverviewContract] });

  async function submit() {
    setError(null);
    try {
      await accept.mutateAsync({ body: { version } });
      onAccepted();
    } catch (caught) {
      if (isSessionError(caught)) return;
      setError(caught instanceof ApiError ? tServer(caught.message) : t('web.common.loadFailed'));
    }
  }

  return (
    <Sheet title={t('web.leverage.disclosure.title')} onClose={onClose} testId="leverage-disclosure">
      <div className="options-disclosure-text">
        <p>{t('web.leverage.disclosure.leverage')}</p>
        <p>{t('web.leverage.disclosure.liquidation')}</p>
        <p>{t('web.leverage.disclosure.house')}</p>
        <p>{t('web.leverage.disclosure.costs')}</p>
        <p>{t('web.leverage.disclosure.prices')}</p>
        <p>{t('web.leverage.disclosure.nobody')}</p>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={checked} onChange={(event) => setChecked(event.target.checked)} data-testid="leverage-disclosure-check" />
        <span>{t('web.leverage.disclosure.check')}</span>
      </label>
      {error && (
        <Notice tone="error" testId="leverage-disclosure-error">
          {error}
        </Notice>
      )}
      <Button block disabled={!checked} busy={accept.isPending} onClick={() => void submit()} data-testid="leverage-disclosure-accept">
        {t('web.leverage.disclosure.accept')}
      </Button>
    </Sheet>
  );
}

/** The figures of an order before it is confirmed: fill price, value, quantity, margin, fee, cost, liquidation price. */
export function QuoteFacts({ quote, overview, asset, testPrefix }: { quote: OrderQuote | null; overview: LeverageOverview; asset: string; testPrefix: string }) {
  const { t } = useI18n();
  const num = useNumberText();
  const value = (text: string | null, testId: string, options: { unit?: string; max?: number } = {}) => (
    <dd data-testid={`${testPrefix}-${testId}`} data-value={text ?? ''}>
      {text === null ? '—' : <Amount value={text} unit={options.unit} max={options.max} />}
    </dd>
  );
  return (
    <dl className="facts options-figures leverage-figures">
      <div>
        <dt>
          {quote?.type === 'limit' ? t('web.leverage.fillPriceLimit') : t('web.leverage.fillPrice', { spread: num(overview.rules.openSpreadPercent, 2) })}
        </dt>
        {value(quote?.fillPrice ?? null, 'fill-price', { max: 8 })}
      </div>
      <div>
        <dt>{t('web.leverage.notional')}</dt>
        {value(quote?.notional ?? null, 'notional', { unit: 'USDT' })}
      </div>
      <div>
        <dt>{t('web.leverage.quantity')}</dt>
        {value(quote?.quantity ?? null, 'quantity', { unit: asset, max: 8 })}
      </div>
      <div>
        <dt>{t('web.leverage.margin')}</dt>
        {value(quote?.margin ?? null, 'margin-figure', { unit: 'USDT' })}
      </div>
      <div>
        <dt>{t('web.leverage.fee', { fee: num(overview.rules.tradingFeePercent, 2) })}</dt>
        {value(quote?.fee ?? null, 'fee', { unit: 'USDT' })}
      </div>
      <div>
        <dt>{t('web.leverage.cost')}</dt>
        {value(quote?.cost ?? null, 'cost', { unit: 'USDT' })}
      </div>
      <div className="facts-strong leverage-liquidation-line">
        <dt>{t('web.leverage.liquidationPrice')}</dt>
        {quote !== null && quote.liquidationPrice === null ? (
          <dd data-testid={`${testPrefix}-liquidation-price`} data-value="">
            {t('web.leverage.noLiquidation')}
          </dd>
        ) : (
          value(quote?.liquidationPrice ?? null, 'liquidation-price', { max: 8 })
        )}
      </div>
    </dl>
  );
}

function ConfirmSheet({
  product,
  symbol,
  type,
  values,
  preview,
  lastTick,
  overview,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  product: LeverageProduct;
  symbol: string;
  type: OrderType;
  values: OrderValues;
  preview: OrderPreview;
  lastTick: RecordedTick | null;
  overview: LeverageOverview;
  busy: boolean;
  error: OrderError | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const quote = preview.kind === 'quote' ? preview.quote : null;
  const asset = symbol.split('/')[0] ?? '';
  return (
    <Sheet title={t('web.leverage.confirm.title')} onClose={onClose} testId="leverage-confirm-sheet">
      <dl className="facts">
        <div>
          <dt>{t('web.leverage.product')}</dt>
          <dd data-testid="leverage-confirm-product">{t(productKeys[product])}</dd>
        </div>
        <div>
          <dt>{t('web.options.market')}</dt>
          <dd data-testid="leverage-confirm-symbol">
            <bdi dir="ltr">{symbol}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('web.leverage.type')}</dt>
          <dd data-testid="leverage-confirm-type">{t(type === 'limit' ? 'web.leverage.type.limit' : 'web.leverage.type.market')}</dd>
        </div>
        {type === 'limit' && (
          <div>
            <dt>{t('web.leverage.limitLabel')}</dt>
            <dd data-testid="leverage-confirm-limit">
              <Amount value={values.limitPrice} max={8} />
            </dd>
          </div>
        )}
        <div>
          <dt>{t('web.leverage.side')}</dt>
          <dd data-testid="leverage-confirm-side">
            <SideTag side={values.side} />
          </dd>
        </div>
        <div>
          <dt>{t('web.leverage.leverage')}</dt>
          <dd data-testid="leverage-confirm-leverage">
            <LeverageTag leverage={values.leverage} />
          </dd>
        </div>
        <div>
          <dt>{t('web.leverage.takeProfit')}</dt>
          <dd data-testid="leverage-confirm-tp">{values.takeProfitPrice ? <Amount value={values.takeProfitPrice} max={8} /> : t('web.leverage.notSet')}</dd>
        </div>
        <div>
          <dt>{t('web.leverage.stopLoss')}</dt>
          <dd data-testid="leverage-confirm-sl">{values.stopLossPrice ? <Amount value={values.stopLossPrice} max={8} /> : t('web.leverage.notSet')}</dd>
        </div>
      </dl>
      <QuoteFacts quote={quote} overview={overview} asset={asset} testPrefix="leverage-confirm" />
      {lastTick && lastTick.symbol === symbol && <TickFacts tick={lastTick} testId="leverage-confirm-tick" label={t('web.leverage.priceUsed')} />}
      <p className="field-hint">{t(type === 'limit' ? 'web.leverage.confirm.limitNote' : 'web.leverage.confirm.opensAt')}</p>
      {error && (
        <Notice tone="error" testId="leverage-order-error">
          <span data-testid="leverage-order-error-message">{error.message}</span>
        </Notice>
      )}
      <div className="options-sheet-actions">
        <Button variant="secondary" onClick={onClose} disabled={busy} data-testid="leverage-confirm-cancel">
          {t('web.options.confirm.cancel')}
        </Button>
        <Button busy={busy} disabled={quote === null} onClick={onConfirm} data-testid="leverage-confirm" className={`leverage-confirm-${values.side}`}>
          {t(type === 'limit' ? 'web.leverage.confirm.place' : 'web.leverage.confirm.open')}
        </Button>
      </div>
    </Sheet>
  );
}

/**
 * The order form of a leverage screen: market or limit order, side, margin against the leveraged
 * balance, the leverage slider limited by the product and the bracket of the notional, a limit
 * order's limit price, optional take-profit and stop-loss, and — before anything is sent — the
 * fill price (the last recorded price with the published spread, or the limit), the value,
 * quantity, fee, cost and liquidation price the server would open at. Review → (the risk
 * disclosure, once) → the confirmation → the position (or the order waiting for its price).
 */
export function LeverageOrderForm({
  product,
  symbol,
  overview,
  lastTick,
  reloadOverview,
  onOpened,
}: {
  product: LeverageProduct;
  symbol: string;
  overview: LeverageOverview;
  lastTick: RecordedTick | null;
  reloadOverview: () => void;
  onOpened: (position: LeveragePosition) => void;
}) {
  const { t, tServer, locale } = useI18n();
  const errorText = useMoneyErrorText();
  const actionKey = useActionKey();
  const client = useQueryClient();
  const sliderId = useId();
  const [step, setStep] = useState<Step>(null);
  const [acceptedHere, setAcceptedHere] = useState(false);
  const [orderError, setOrderError] = useState<OrderError | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [type, setType] = useState<OrderType>('market');
  const changed = [listPositionsContract, listLimitOrdersContract, getLeverageOverviewContract, listAccountsContract, listRecordsContract];
  const openPosition = useContractMutation(openPositionContract, { onSuccess: () => void invalidateContracts(client, changed) });
  const placeOrder = useContractMutation(placeLimitOrderContract, { onSuccess: () => void invalidateContracts(client, changed) });
  const sending = openPosition.isPending || placeOrder.isPending;

  const lastPrice = lastTick && lastTick.symbol === symbol ? lastTick.price : null;
  const available = overview.balance.available;
  const limits = useRef<OrderLimits>({ product, available, lastPrice, type });
  limits.current = { product, available, lastPrice, type };
  const schema = useMemo(() => orderFormSchema(() => limits.current), []);
  const form = useContractForm(schema, {
    defaultValues: { side: 'long', margin: '', leverage: DEFAULT_LEVERAGE, limitPrice: '', takeProfitPrice: '', stopLossPrice: '' },
  });
  const { errors } = form.formState;
  const side = form.watch('side');
  const typedMargin = normaliseAmountInput(form.watch('margin'));
  const cap = leverageCap(product, usdtMinorOf(typedMargin));
  const chosen = Number(form.watch('leverage'));
  const leverage = clampLeverage(Number.isFinite(chosen) ? chosen : DEFAULT_LEVERAGE, cap);
  const typedLimit = normaliseAmountInput(form.watch('limitPrice'));
  const preview = orderPreview({ product, side, margin: typedMargin, leverage, lastPrice, type, limitPrice: typedLimit });
  const quote = preview.kind === 'quote' ? preview.quote : null;
  const accepted = overview.disclosure.acceptedAt !== null || acceptedHere;
  const asset = symbol.split('/')[0] ?? '';
  const money = (text: string) => formatDecimal(text, locale, { minFractionDigits: 2, maxFractionDigits: 8 });

  // A margin whose bracket allows less than the leverage chosen lowers the leverage with it.
  useEffect(() => {
    if (chosen !== leverage) form.setValue('leverage', leverage);
  }, [chosen, leverage, form]);

  function edited() {
    setFormError(null);
    setDone(null);
  }

  function review() {
    edited();
    void form.handleSubmit((checked) => {
      setOrderError(null);
      setStep({ kind: accepted ? 'confirm' : 'disclosure', type, values: checked });
    })();
  }

  async function confirm(orderType: OrderType, confirmed: OrderValues) {
    setOrderError(null);
    try {
      if (orderType === 'limit') {
        const body = limitBody(product, symbol, confirmed);
        const order = await placeOrder.mutateAsync({ body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
        actionKey.settle();
        setStep(null);
        setDone({ kind: 'placed', order });
      } else {
        const body = openBody(product, symbol, confirmed);
        const position = await openPosition.mutateAsync({ body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
        actionKey.settle();
        setStep(null);
        setDone({ kind: 'opened', position });
        onOpened(position);
      }
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      if (!(error instanceof ApiError)) {
        setOrderError({ message: t('web.leverage.orderUncertain') });
        return;
      }
      const key = errorKeyFromMsg(error.message);
      if (key === 'RISK_DISCLOSURE_REQUIRED') {
        // A new version of the text, or the acceptance was not recorded: read it (again).
        setAcceptedHere(false);
        reloadOverview();
        setStep({ kind: 'disclosure', type: orderType, values: confirmed });
        return;
      }
      if (key === 'IDENTITY_VERIFICATION_REQUIRED' || key === 'INSUFFICIENT_BALANCE') reloadOverview();
      if (key === 'IDENTITY_VERIFICATION_REQUIRED') {
        setStep(null);
        setFormError(tServer(error.message));
        return;
      }
      setOrderError({ message: tServer(error.message) });
    }
  }

  const referenceText = quote ? money(quote.referencePrice) : lastPrice === null ? '—' : money(lastPrice);
  const liquidationText = quote?.liquidationPrice ? money(quote.liquidationPrice) : '—';
  const above = type === 'limit' ? 'web.leverage.problem.aboveLimit' : 'web.leverage.problem.aboveLast';
  const below = type === 'limit' ? 'web.leverage.problem.belowLimit' : 'web.leverage.problem.belowLast';
  const own = {
    [leverageProblems.limitRequired]: t('web.leverage.problem.limitRequired'),
    [leverageProblems.priceFormat]: t('web.leverage.problem.priceFormat'),
    [leverageProblems.costAboveAvailable]: t('web.leverage.problem.costAboveAvailable', { fee: quote ? money(quote.fee) : '—' }),
    [leverageProblems.noPrice]: t('web.leverage.problem.noPrice'),
    [leverageProblems.quantityZero]: t('web.leverage.problem.quantityZero'),
    [leverageProblems.takeProfitWrongSide]: t(side === 'long' ? above : below, { price: referenceText }),
    [leverageProblems.stopLossWrongSide]: t(side === 'long' ? below : above, { price: referenceText }),
    [leverageProblems.stopLossBeyondLiquidation]: t(side === 'long' ? 'web.leverage.problem.aboveLiquidation' : 'web.leverage.problem.belowLiquidation', {
      price: liquidationText,
    }),
  };
  const marginError = errorText(errors.margin, { required: t('web.leverage.marginRequired'), asset: 'USDT', scale: MARGIN_SCALE, own });
  const limitError = errorText(errors.limitPrice, { own });
  const takeProfitError = errorText(errors.takeProfitPrice, { own });
  const stopLossError = errorText(errors.stopLossPrice, { own });
  const leverageProblem =
    preview.kind === 'problem' && preview.problem !== 'quantity_zero'
      ? preview.problem === 'notional_too_large'
        ? t('web.leverage.problem.notionalTooLarge')
        : t('web.leverage.problem.leverageAbove', { max: preview.maxLeverage ?? cap.max })
      : null;

  return (
    <form className="options-form leverage-form" onSubmit={(event: FormEvent) => event.preventDefault()} noValidate aria-label={t('web.leverage.form')}>
      <Segmented
        label={t('web.leverage.type')}
        value={type}
        onChange={(value) => {
          setType(value);
          edited();
          if (form.formState.isSubmitted) form.clearErrors();
        }}
        options={[
          { value: 'market', label: t('web.leverage.type.market'), testId: 'leverage-type-market' },
          { value: 'limit', label: t('web.leverage.type.limit'), testId: 'leverage-type-limit' },
        ]}
      />
      <fieldset className="leverage-sides">
        <legend className="options-label">{t('web.leverage.side')}</legend>
        <div className="leverage-side-row">
          {(['long', 'short'] as const).map((each) => (
            <button
              key={each}
              type="button"
              className={`leverage-side ${each}${side === each ? ' active' : ''}`}
              aria-pressed={side === each}
              data-testid={`leverage-side-${each}`}
              onClick={() => {
                form.setValue('side', each);
                if (form.formState.isSubmitted) void form.trigger();
                edited();
              }}
            >
              <span className="leverage-side-name">{t(sideKeys[each])}</span>
              <span className="leverage-side-hint">{t(each === 'long' ? 'web.leverage.side.longHint' : 'web.leverage.side.shortHint')}</span>
            </button>
          ))}
        </div>
      </fieldset>

      <div className="amount-field">
        <TextField
          label={t('web.leverage.marginLabel')}
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('web.transfer.amountPlaceholder')}
          maxLength={40}
          data-testid="leverage-margin"
          {...form.register('margin', { onChange: edited })}
          error={marginError}
        />
        <div className="amount-meta">
          <span className="muted">
            {t('web.leverage.available')} <Amount value={available} unit="USDT" testId="leverage-available" />
          </span>
          <Link to="/assets/transfer" className="btn btn-ghost btn-small" data-testid="leverage-transfer">
            {t('web.options.transferIn')}
          </Link>
        </div>
      </div>

      <div className="leverage-slider field">
        <div className="leverage-slider-head">
          <label htmlFor={sliderId}>{t('web.leverage.leverage')}</label>
          <output htmlFor={sliderId} className="leverage-slider-value" data-testid="leverage-leverage-value" data-value={leverage}>
            {t('web.leverage.times', { leverage })}
          </output>
        </div>
        <input
          id={sliderId}
          type="range"
          min={1}
          max={Math.max(1, cap.max)}
          step={1}
          disabled={cap.max === 0}
          aria-valuetext={t('web.leverage.times', { leverage })}
          aria-describedby={`${sliderId}-hint`}
          data-testid="leverage-leverage"
          {...form.register('leverage', { valueAsNumber: true, onChange: edited })}
        />
        <fieldset className="leverage-presets">
          <legend className="visually-hidden">{t('web.leverage.presets')}</legend>
          {presets[product].map((each) => (
            <button
              key={each}
              type="button"
              className={`leverage-preset${each === leverage ? ' active' : ''}`}
              aria-pressed={each === leverage}
              disabled={each > cap.max}
              data-testid={`leverage-preset-${each}`}
              onClick={() => {
                form.setValue('leverage', each, { shouldValidate: form.formState.isSubmitted });
                edited();
              }}
            >
              {t('web.leverage.times', { leverage: each })}
            </button>
          ))}
        </fieldset>
        <p id={`${sliderId}-hint`} className={leverageProblem ? 'field-error' : 'field-hint'} data-testid="leverage-cap" data-max={cap.max}>
          {leverageProblem ??
            (cap.max === 0
              ? t('web.leverage.problem.notionalTooLarge')
              : cap.byBracket
                ? t('web.leverage.capBracket', { max: cap.max })
                : t('web.leverage.capProduct', { max: cap.max }))}
        </p>
      </div>

      {type === 'limit' && (
        <TextField
          label={t('web.leverage.limitLabel')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          data-testid="leverage-limit"
          hint={t('web.leverage.limitHint')}
          {...form.register('limitPrice', { onChange: edited })}
          error={limitError}
        />
      )}

      <div className="leverage-triggers">
        <TextField
          label={t('web.leverage.tpLabel')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          data-testid="leverage-tp"
          {...form.register('takeProfitPrice', { onChange: edited })}
          error={takeProfitError}
        />
        <TextField
          label={t('web.leverage.slLabel')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          data-testid="leverage-sl"
          {...form.register('stopLossPrice', { onChange: edited })}
          error={stopLossError}
        />
        <p className="field-hint">{t('web.leverage.triggerHint')}</p>
      </div>

      <QuoteFacts quote={quote} overview={overview} asset={asset} testPrefix="leverage" />
      {preview.kind === 'noPrice' && (
        <p className="field-hint" data-testid="leverage-no-price">
          {t('web.leverage.problem.noPrice')}
        </p>
      )}

      {formError && (
        <Notice tone="error" testId="leverage-form-error">
          {formError}
        </Notice>
      )}
      {done?.kind === 'opened' && (
        <Notice testId="leverage-opened">
          {t('web.leverage.opened', { positionNo: done.position.positionNo })}
        </Notice>
      )}
      {done?.kind === 'placed' && (
        <Notice testId="leverage-placed">
          {t('web.leverage.placed', { orderNo: done.order.orderNo })}
        </Notice>
      )}

      <Button block onClick={review} className={`leverage-review leverage-confirm-${side}`} data-testid="leverage-review">
        {t(side === 'long' ? 'web.leverage.review.long' : 'web.leverage.review.short')}
      </Button>
      <p className="field-hint">{t('web.leverage.reviewHint')}</p>

      {step?.kind === 'disclosure' && (
        <LeverageDisclosureSheet
          version={overview.disclosure.version}
          onClose={() => setStep(null)}
          onAccepted={() => {
            setAcceptedHere(true);
            setStep({ ...step, kind: 'confirm' });
          }}
        />
      )}
      {step?.kind === 'confirm' && (
        <ConfirmSheet
          product={product}
          symbol={symbol}
          type={step.type}
          values={step.values}
          preview={orderPreview({ product, ...step.values, lastPrice, type: step.type })}
          lastTick={lastTick}
          overview={overview}
          busy={sending}
          error={orderError}
          onClose={() => {
            if (!sending) setStep(null);
          }}
          onConfirm={() => void confirm(step.type, step.values)}
        />
      )}
    </form>
  );
}
