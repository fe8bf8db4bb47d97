import {
  acceptOptionsDisclosureContract,
  ApiError,
  errorKeyFromMsg,
  getOptionsOverviewContract,
  listAccountsContract,
  listOptionOrdersContract,
  listRecordsContract,
  type OptionOrder,
  type OptionsOverview,
  placeOptionOrderContract,
} from '@keel/contracts';
import { invalidateContracts } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { useContractForm } from '../../shared/forms/index.ts';
import { formatDecimal, isDecimal, normaliseAmountInput } from '../../shared/format/decimal.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import type { RecordedTick } from '../../shared/realtime/realtime.ts';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Notice, TextField } from '../../shared/ui/components.tsx';
import { amountProblem } from '../assets/amount-field.ts';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import {
  expectedProfit,
  firstOpenProduct,
  OPTIONS_SCALE,
  type OptionProduct,
  STAKE_OUT_OF_RANGE,
  stakeRangeProblem,
  winReturn,
} from './options-logic.ts';
import { DirectionTag, DownIcon, RangeText, SettlementRule, UpIcon, useCycleText } from './OptionsParts.tsx';
import { Sheet } from './Sheet.tsx';
import { type StakeLimits, stakeFormSchema } from './stake-form.ts';
import { serverClock } from './useOptions.ts';

type Direction = OptionOrder['direction'];
/** A refusal as the confirmation shows it: the catalogue message, and the figures the answer gave. */
interface OrderError {
  message: string;
  detail?: string;
}

/** The sheet open over the form, with the stake the form accepted. */
type Step = { kind: 'disclosure' | 'confirm'; direction: Direction; stake: string } | null;

const rangeData = (data: unknown): { min: string; max: string } | null => {
  if (data === null || typeof data !== 'object') return null;
  const { min, max } = data as { min?: unknown; max?: unknown };
  return typeof min === 'string' && typeof max === 'string' && isDecimal(min) && isDecimal(max) ? { min, max } : null;
};

/** The risk disclosure (issue 7): read and accepted once, before the first order. */
function DisclosureSheet({
  version,
  onAccepted,
  onClose,
}: {
  version: number;
  onAccepted: () => void;
  onClose: () => void;
}) {
  const { t, tServer } = useI18n();
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const acceptDisclosure = useContractMutation(acceptOptionsDisclosureContract, { invalidates: [getOptionsOverviewContract] });

  async function accept() {
    setError(null);
    try {
      await acceptDisclosure.mutateAsync({ body: { version } });
      onAccepted();
    } catch (caught) {
      if (isSessionError(caught)) return;
      setError(caught instanceof ApiError ? tServer(caught.message) : t('web.common.loadFailed'));
    }
  }

  return (
    <Sheet title={t('web.options.disclosure.title')} onClose={onClose} testId="options-disclosure">
      <div className="options-disclosure-text">
        <p>{t('web.options.disclosure.product')}</p>
        <p>{t('web.options.disclosure.house')}</p>
        <p>{t('web.options.disclosure.average')}</p>
        <p>{t('web.options.disclosure.prices')}</p>
        <p>{t('web.options.disclosure.nobody')}</p>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={checked} onChange={(event) => setChecked(event.target.checked)} data-testid="options-disclosure-check" />
        <span>{t('web.options.disclosure.check')}</span>
      </label>
      {error && (
        <Notice tone="error" testId="options-disclosure-error">
          {error}
        </Notice>
      )}
      <Button block disabled={!checked} busy={acceptDisclosure.isPending} onClick={() => void accept()} data-testid="options-disclosure-accept">
        {t('web.options.disclosure.accept')}
      </Button>
    </Sheet>
  );
}

function ConfirmSheet({
  symbol,
  direction,
  product,
  stake,
  lastTick,
  rule,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  symbol: string;
  direction: Direction;
  product: OptionProduct;
  stake: string;
  lastTick: RecordedTick | null;
  rule: OptionsOverview['rule'];
  busy: boolean;
  error: OrderError | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const cycleText = useCycleText();
  return (
    <Sheet title={t('web.options.confirm.title')} onClose={onClose} testId="options-confirm-sheet">
      <dl className="facts">
        <div>
          <dt>{t('web.options.market')}</dt>
          <dd data-testid="options-confirm-symbol">
            <bdi dir="ltr">{symbol}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('web.options.direction')}</dt>
          <dd data-testid="options-confirm-direction">
            <DirectionTag direction={direction} />
          </dd>
        </div>
        <div>
          <dt>{t('web.options.cycle')}</dt>
          <dd data-testid="options-confirm-cycle">{cycleText(product.cycleSeconds)}</dd>
        </div>
        <div>
          <dt>{t('web.options.stake')}</dt>
          <dd>
            <Amount value={stake} unit="USDT" testId="options-confirm-stake" />
          </dd>
        </div>
        <div>
          <dt>{t('web.options.yield')}</dt>
          <dd>
            <Amount value={product.yieldPercent} suffix=" %" />
          </dd>
        </div>
        <div className="facts-strong">
          <dt>{t('web.options.expectedProfit')}</dt>
          <dd>
            <Amount value={expectedProfit(stake, product.yieldBps)} unit="USDT" testId="options-confirm-profit" />
          </dd>
        </div>
        <div>
          <dt>{t('web.options.winReturn')}</dt>
          <dd>
            <Amount value={winReturn(stake, product.yieldBps)} unit="USDT" />
          </dd>
        </div>
        <div>
          <dt>{t('web.options.currentPrice')}</dt>
          <dd data-testid="options-confirm-price">
            {lastTick ? (
              <span className="options-confirm-price">
                <Amount value={lastTick.price} max={8} />
                <span className="muted options-tick-meta">
                  {formatDateTime(new Date(lastTick.atMs).toISOString())} · {t('web.options.tick.source', { source: lastTick.source })}
                </span>
              </span>
            ) : (
              '—'
            )}
          </dd>
        </div>
      </dl>
      <p className="field-hint">{t('web.options.confirm.opensAt')}</p>
      <SettlementRule rule={rule} />
      {error && (
        <Notice tone="error" testId="options-order-error">
          <span data-testid="options-order-error-message">{error.message}</span>
          {error.detail && <span className="options-error-detail">{error.detail}</span>}
        </Notice>
      )}
      <div className="options-sheet-actions">
        <Button variant="secondary" onClick={onClose} disabled={busy} data-testid="options-confirm-cancel">
          {t('web.options.confirm.cancel')}
        </Button>
        <Button busy={busy} onClick={onConfirm} data-testid="options-confirm" className={`options-confirm-${direction}`}>
          {t('web.options.confirm.place')}
        </Button>
      </div>
    </Sheet>
  );
}

/**
 * The order form of the contract trade screen: the cycle (products the operator switched off are
 * shown off and cannot be chosen), the stake against the options balance and the product's range,
 * the yield and the exact expected profit, then Up or Down → (the risk disclosure, once) → the
 * confirmation with the settlement rule → the order.
 */
export function OrderForm({
  symbol,
  overview,
  lastTick,
  reloadOverview,
  onPlaced,
}: {
  symbol: string;
  overview: OptionsOverview;
  lastTick: RecordedTick | null;
  reloadOverview: () => void;
  onPlaced: (order: OptionOrder) => void;
}) {
  const { t, tServer, locale } = useI18n();
  const cycleText = useCycleText();
  const actionKey = useActionKey();
  const errorText = useMoneyErrorText();
  const [cycle, setCycle] = useState<number | null>(null);
  const [step, setStep] = useState<Step>(null);
  const [acceptedHere, setAcceptedHere] = useState(false);
  const client = useQueryClient();
  // What an order changes is invalidated once it is answered, but not waited for: the answer's own
  // arrival time estimates the server's clock (the countdowns), and the order shows at once anyway.
  const placeOrder = useContractMutation(placeOptionOrderContract, {
    onSuccess: () => void invalidateContracts(client, [listOptionOrdersContract, getOptionsOverviewContract, listAccountsContract, listRecordsContract]),
  });
  const placing = placeOrder.isPending;
  const [orderError, setOrderError] = useState<OrderError | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [placed, setPlaced] = useState<OptionOrder | null>(null);

  const products = overview.products;
  const chosen = products.find((product) => product.cycleSeconds === cycle && product.enabled) ?? firstOpenProduct(products);
  const available = overview.balance.available;
  // The stake is checked against the balance and the cycle on screen when the form is checked.
  const limits = useRef<StakeLimits>({ available });
  limits.current = { available, product: chosen };
  const schema = useMemo(() => stakeFormSchema(() => limits.current), []);
  const form = useContractForm(schema, { defaultValues: { amount: '' } });
  const amountError = form.formState.errors.amount;
  // Read as typed for the expected profit, which shows for any amount the balance covers.
  const typed = normaliseAmountInput(form.watch('amount'));
  const profit = chosen && typed !== '' && amountProblem(typed, { scale: OPTIONS_SCALE, available }) === null ? expectedProfit(typed, chosen.yieldBps) : null;
  const rangeProblem = amountError?.message === STAKE_OUT_OF_RANGE && chosen ? stakeRangeProblem(typed, chosen) : null;
  const accepted = overview.disclosure.acceptedAt !== null || acceptedHere;
  const formatMoney = (value: string) => formatDecimal(value, locale, { minFractionDigits: 2, maxFractionDigits: 6 });

  if (!chosen) {
    return (
      <Notice tone="warning" testId="options-closed">
        {t('web.options.allClosed')}
      </Notice>
    );
  }

  function edited() {
    setFormError(null);
    setPlaced(null);
  }

  /** Up or Down: the stake is checked (the first problem's field takes the focus), then the disclosure once, then the confirmation. */
  function review(direction: Direction) {
    setPlaced(null);
    setFormError(null);
    void form.handleSubmit(({ amount }) => {
      setOrderError(null);
      setStep(accepted ? { kind: 'confirm', direction, stake: amount } : { kind: 'disclosure', direction, stake: amount });
    })();
  }

  async function place(direction: Direction, product: OptionProduct, stake: string) {
    const body = { symbol, direction, cycleSeconds: product.cycleSeconds, amount: stake };
    setOrderError(null);
    const sentAt = Date.now();
    try {
      const order = await placeOrder.mutateAsync({ body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
      actionKey.settle();
      serverClock.note(order.placedAtMs, sentAt, Date.now());
      setStep(null);
      setPlaced(order);
      onPlaced(order);
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      if (!(error instanceof ApiError)) {
        setOrderError({ message: t('web.options.orderUncertain') });
        return;
      }
      const key = errorKeyFromMsg(error.message);
      const text = tServer(error.message);
      const range = key === 'AMOUNT_OUT_OF_RANGE' ? rangeData(error.data) : null;
      if (key === 'RISK_DISCLOSURE_REQUIRED') {
        // Accepted on another device and withdrawn, or a new version of the text: read it (again).
        setAcceptedHere(false);
        reloadOverview();
        setStep({ kind: 'disclosure', direction, stake });
        return;
      }
      if (key === 'IDENTITY_VERIFICATION_REQUIRED' || key === 'PRODUCT_CLOSED' || key === 'INSUFFICIENT_BALANCE') reloadOverview();
      if (key === 'IDENTITY_VERIFICATION_REQUIRED') {
        setStep(null);
        setFormError(text);
        return;
      }
      setOrderError({ message: text, detail: range ? t('web.options.range', { min: formatMoney(range.min), max: formatMoney(range.max) }) : undefined });
    }
  }

  const amountErrorText = errorText(amountError, {
    required: t('web.options.stakeRequired'),
    asset: 'USDT',
    scale: OPTIONS_SCALE,
    own: { [STAKE_OUT_OF_RANGE]: t('error.AMOUNT_OUT_OF_RANGE') },
  });

  return (
    <form className="options-form" onSubmit={(event: FormEvent) => event.preventDefault()} noValidate aria-label={t('web.options.form')}>
      <fieldset className="options-cycles">
        <legend className="options-label">{t('web.options.cycle')}</legend>
        <div className="options-cycle-row">
          {products.map((product) => {
            const active = product.enabled && product.cycleSeconds === chosen.cycleSeconds;
            return (
              <button
                key={product.cycleSeconds}
                type="button"
                className={`options-cycle${active ? ' active' : ''}${product.enabled ? '' : ' off'}`}
                aria-pressed={active}
                disabled={!product.enabled}
                data-testid={`options-cycle-${product.cycleSeconds}`}
                data-enabled={product.enabled}
                onClick={() => {
                  setCycle(product.cycleSeconds);
                  edited();
                }}
              >
                <span className="options-cycle-time">{cycleText(product.cycleSeconds)}</span>
                <span className="options-cycle-yield">
                  {product.enabled ? <Amount value={product.yieldPercent} min={0} max={2} suffix=" %" /> : t('web.options.cycleOff')}
                </span>
              </button>
            );
          })}
        </div>
      </fieldset>

      <div className="amount-field">
        <TextField
          label={t('web.options.stakeLabel')}
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('web.transfer.amountPlaceholder')}
          maxLength={40}
          data-testid="options-amount"
          {...form.register('amount', { onChange: edited })}
          error={amountErrorText}
        />
        <p className={rangeProblem !== null ? 'field-error' : 'field-hint'} data-testid="options-range" data-problem={rangeProblem ?? undefined}>
          {t('web.options.rangeLabel')} <RangeText min={chosen.minStake} max={chosen.maxStake} />
        </p>
        <div className="amount-meta">
          <span className="muted">
            {t('web.options.available')} <Amount value={available} unit="USDT" testId="options-available" />
          </span>
          <Link to="/assets/transfer" className="btn btn-ghost btn-small" data-testid="options-transfer">
            {t('web.options.transferIn')}
          </Link>
        </div>
      </div>

      <dl className="facts options-figures">
        <div>
          <dt>{t('web.options.yield')}</dt>
          <dd data-testid="options-yield">
            <Amount value={chosen.yieldPercent} suffix=" %" />
          </dd>
        </div>
        <div className="facts-strong">
          <dt>{t('web.options.expectedProfit')}</dt>
          <dd data-testid="options-expected-profit" data-value={profit ?? ''}>
            {profit !== null ? <Amount value={profit} unit="USDT" /> : '—'}
          </dd>
        </div>
      </dl>

      {formError && (
        <Notice tone="error" testId="options-form-error">
          {formError}
        </Notice>
      )}
      {placed && (
        <Notice testId="options-placed">
          {t('web.options.placed', { orderNo: placed.orderNo })}
        </Notice>
      )}

      <div className="options-directions">
        <button
          type="button"
          className="options-direction up"
          data-testid="options-direction-up"
          aria-label={t('web.options.direction.upLabel')}
          onClick={() => review('up')}
        >
          <UpIcon />
          <span>{t('web.options.direction.up')}</span>
        </button>
        <button
          type="button"
          className="options-direction down"
          data-testid="options-direction-down"
          aria-label={t('web.options.direction.downLabel')}
          onClick={() => review('down')}
        >
          <DownIcon />
          <span>{t('web.options.direction.down')}</span>
        </button>
      </div>
      <p className="field-hint">{t('web.options.directionHint')}</p>

      {step?.kind === 'disclosure' && (
        <DisclosureSheet
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
          symbol={symbol}
          direction={step.direction}
          product={chosen}
          stake={step.stake}
          lastTick={lastTick}
          rule={overview.rule}
          busy={placing}
          error={orderError}
          onClose={() => {
            if (!placing) setStep(null);
          }}
          onConfirm={() => void place(step.direction, chosen, step.stake)}
        />
      )}
    </form>
  );
}
