import {
  ApiError,
  changePositionMarginContract,
  closePositionContract,
  getLeverageOverviewContract,
  getPositionContract,
  type LeverageOverview,
  type LeveragePosition,
  listAccountsContract,
  listPositionsContract,
  listRecordsContract,
  setPositionTriggersContract,
} from '@keel/contracts';
import { MARGIN_SCALE } from '@keel/domain';
import { invalidateContracts } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useRef, useState } from 'react';
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
import { Sheet } from '../options/Sheet.tsx';
import { LeverageTag, SideTag, useNumberText } from './LeverageParts.tsx';
import type { ShownMark } from './mark-prices.ts';
import { closeFormSchema, leverageProblems, marginFormSchema, priceOrNull, triggersFormSchema } from './order-form.ts';
import { closePreview, marginChangePreview, standingAt } from './position-figures.ts';

/** What every change of a position makes out of date. */
const changed = [listPositionsContract, getPositionContract, getLeverageOverviewContract, listAccountsContract, listRecordsContract];

interface SheetProps {
  position: LeveragePosition;
  overview: LeverageOverview;
  /** The last recorded tick of the position's market. */
  lastTick: RecordedTick | null;
  mark: ShownMark | null;
  onClose: () => void;
}

/** A change refused or unanswered, in words. */
function useRefusalText() {
  const { t, tServer } = useI18n();
  return (error: unknown): string | null => {
    if (isSessionError(error)) return null;
    return error instanceof ApiError ? tServer(error.message) : t('web.leverage.actionUncertain');
  };
}

/** Which position a sheet acts on. */
function PositionHead({ position }: { position: LeveragePosition }) {
  return (
    <p className="options-order-head leverage-sheet-position" data-testid="leverage-sheet-position">
      <bdi dir="ltr" className="options-order-symbol">
        {position.symbol}
      </bdi>
      <SideTag side={position.side} />
      <LeverageTag leverage={position.leverage} />
      <span className="muted mono">{position.positionNo}</span>
    </p>
  );
}

function Actions({ busy, onClose, confirmLabel, testId, disabled }: { busy: boolean; onClose: () => void; confirmLabel: string; testId: string; disabled?: boolean }) {
  const { t } = useI18n();
  return (
    <div className="options-sheet-actions">
      <Button variant="secondary" onClick={onClose} disabled={busy} data-testid="leverage-sheet-cancel">
        {t('web.options.confirm.cancel')}
      </Button>
      <Button type="submit" busy={busy} disabled={disabled} data-testid={testId}>
        {confirmLabel}
      </Button>
    </div>
  );
}

/** Close all of a position or part of it at the last recorded price, with the PnL, fee and payout shown first. */
function CloseSheet({ position, overview, lastTick, onClose }: SheetProps) {
  const { t } = useI18n();
  const num = useNumberText();
  const refusal = useRefusalText();
  const errorText = useMoneyErrorText();
  const actionKey = useActionKey();
  const client = useQueryClient();
  const [part, setPart] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = useContractMutation(closePositionContract, { onSuccess: () => void invalidateContracts(client, changed) });
  const limits = useRef({ openQuantity: position.quantity });
  limits.current = { openQuantity: position.quantity };
  const schema = useMemo(() => closeFormSchema(() => limits.current), []);
  const form = useContractForm(schema, { defaultValues: { quantity: '' } });
  const typed = part ? normaliseAmountInput(form.watch('quantity')) : '';
  const lastPrice = lastTick?.price ?? null;
  const preview = lastPrice !== null ? closePreview(position, typed, lastPrice) : null;
  const asset = position.symbol.split('/')[0] ?? '';
  const quantityError = errorText(form.formState.errors.quantity, {
    own: {
      [leverageProblems.quantityFormat]: t('web.leverage.problem.quantityFormat'),
      [leverageProblems.quantityAboveOpen]: t('web.leverage.problem.quantityAboveOpen'),
    },
  });

  const submit = form.handleSubmit(async ({ quantity }) => {
    const body = { quantity: part && quantity !== '' ? quantity : null };
    setError(null);
    try {
      await close.mutateAsync({ params: { positionId: position.id }, body, idempotencyKey: actionKey.keyFor(JSON.stringify([position.id, body])) });
      actionKey.settle();
      onClose();
    } catch (caught) {
      actionKey.settle(caught);
      setError(refusal(caught));
    }
  });

  return (
    <Sheet title={t('web.leverage.close.title')} onClose={() => !close.isPending && onClose()} testId="leverage-close-sheet">
      <form className="options-form" onSubmit={(event: FormEvent) => void submit(event)} noValidate>
        <PositionHead position={position} />
        <Segmented
          label={t('web.leverage.close.how')}
          value={part ? 'part' : 'all'}
          onChange={(value) => setPart(value === 'part')}
          options={[
            { value: 'all', label: t('web.leverage.close.all'), testId: 'leverage-close-all' },
            { value: 'part', label: t('web.leverage.close.part'), testId: 'leverage-close-part' },
          ]}
        />
        {part && (
          <TextField
            label={t('web.leverage.close.quantityLabel', { asset })}
            inputMode="decimal"
            autoComplete="off"
            maxLength={40}
            data-testid="leverage-close-quantity"
            hint={t('web.leverage.close.open', { quantity: formatDecimal(position.quantity, 'en', { grouping: false }), asset })}
            {...form.register('quantity', { onChange: () => setError(null) })}
            error={quantityError}
          />
        )}
        <dl className="facts options-figures">
          <div>
            <dt>{t('web.leverage.close.price')}</dt>
            <dd data-testid="leverage-close-price">{lastPrice ? <Amount value={lastPrice} max={8} /> : '—'}</dd>
          </div>
          <div>
            <dt>{t('web.leverage.quantity')}</dt>
            <dd data-testid="leverage-close-amount">{preview ? <Amount value={preview.quantity} unit={asset} max={8} /> : '—'}</dd>
          </div>
          <div>
            <dt>{t('web.leverage.event.pnl')}</dt>
            <dd data-testid="leverage-close-pnl">{preview ? <Amount value={preview.pnl} unit="USDT" signed /> : '—'}</dd>
          </div>
          <div>
            <dt>{t('web.leverage.fee', { fee: num(overview.rules.tradingFeePercent, 2) })}</dt>
            <dd data-testid="leverage-close-fee">{preview ? <Amount value={preview.fee} unit="USDT" /> : '—'}</dd>
          </div>
          <div className="facts-strong">
            <dt>{t('web.leverage.event.payout')}</dt>
            <dd data-testid="leverage-close-payout">{preview ? <Amount value={preview.payout} unit="USDT" /> : '—'}</dd>
          </div>
        </dl>
        <p className="field-hint">{t('web.leverage.close.note')}</p>
        {error && (
          <Notice tone="error" testId="leverage-sheet-error">
            {error}
          </Notice>
        )}
        <Actions busy={close.isPending} onClose={onClose} confirmLabel={t('web.leverage.close.confirm')} testId="leverage-close-confirm" />
      </form>
    </Sheet>
  );
}

/** Add margin from the available balance or take some back; the new liquidation price is shown before confirming. */
function MarginSheet({ position, overview, mark, onClose }: SheetProps) {
  const { t } = useI18n();
  const refusal = useRefusalText();
  const errorText = useMoneyErrorText();
  const actionKey = useActionKey();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const change = useContractMutation(changePositionMarginContract, { onSuccess: () => void invalidateContracts(client, changed) });
  const available = overview.balance.available;
  const removable = mark ? standingAt(position, mark.price).removableMargin : null;
  const limits = useRef<{ direction: 'add' | 'remove'; available: string; removable: string | null }>({ direction: 'add', available, removable });
  const schema = useMemo(() => marginFormSchema(() => limits.current), []);
  const form = useContractForm(schema, { defaultValues: { direction: 'add', amount: '' } });
  const direction = form.watch('direction');
  limits.current = { direction, available, removable };
  const typed = normaliseAmountInput(form.watch('amount'));
  const preview = marginChangePreview(position, direction, typed);
  const amountError = errorText(form.formState.errors.amount, {
    required: t('web.leverage.marginRequired'),
    asset: 'USDT',
    scale: MARGIN_SCALE,
    own: { [leverageProblems.aboveRemovable]: t('web.leverage.problem.aboveRemovable', { amount: removable ?? '0' }) },
  });

  const submit = form.handleSubmit(async (body) => {
    setError(null);
    try {
      await change.mutateAsync({ params: { positionId: position.id }, body, idempotencyKey: actionKey.keyFor(JSON.stringify([position.id, body])) });
      actionKey.settle();
      onClose();
    } catch (caught) {
      actionKey.settle(caught);
      setError(refusal(caught));
    }
  });

  return (
    <Sheet title={t('web.leverage.marginSheet.title')} onClose={() => !change.isPending && onClose()} testId="leverage-margin-sheet">
      <form className="options-form" onSubmit={(event: FormEvent) => void submit(event)} noValidate>
        <PositionHead position={position} />
        <Segmented
          label={t('web.leverage.marginSheet.how')}
          value={direction}
          onChange={(value) => {
            form.setValue('direction', value, { shouldValidate: form.formState.isSubmitted });
            setError(null);
          }}
          options={[
            { value: 'add', label: t('web.leverage.marginSheet.add'), testId: 'leverage-margin-add' },
            { value: 'remove', label: t('web.leverage.marginSheet.remove'), testId: 'leverage-margin-remove' },
          ]}
        />
        <TextField
          label={t('web.leverage.marginSheet.amountLabel')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          data-testid="leverage-margin-amount"
          {...form.register('amount', { onChange: () => setError(null) })}
          error={amountError}
        />
        <p className="field-hint" data-testid="leverage-margin-limit">
          {direction === 'add' ? (
            <>
              {t('web.leverage.available')} <Amount value={available} unit="USDT" />
            </>
          ) : removable === null ? (
            t('web.leverage.noMark')
          ) : (
            <>
              {t('web.leverage.marginSheet.removable')} <Amount value={removable} unit="USDT" />
            </>
          )}
        </p>
        <dl className="facts options-figures">
          <div>
            <dt>{t('web.leverage.margin')}</dt>
            <dd>
              <Amount value={position.margin} unit="USDT" />
            </dd>
          </div>
          <div>
            <dt>{t('web.leverage.marginSheet.newMargin')}</dt>
            <dd data-testid="leverage-margin-new">{preview ? <Amount value={preview.margin} unit="USDT" /> : '—'}</dd>
          </div>
          <div>
            <dt>{t('web.leverage.liquidationPrice')}</dt>
            <dd data-testid="leverage-margin-liquidation">
              {position.liquidationPrice ? <Amount value={position.liquidationPrice} max={8} /> : t('web.leverage.noLiquidation')}
            </dd>
          </div>
          <div className="facts-strong">
            <dt>{t('web.leverage.marginSheet.newLiquidation')}</dt>
            <dd data-testid="leverage-margin-new-liquidation" data-value={preview?.liquidationPrice ?? ''}>
              {preview === null ? '—' : preview.liquidationPrice === null ? t('web.leverage.noLiquidation') : <Amount value={preview.liquidationPrice} max={8} />}
            </dd>
          </div>
        </dl>
        {direction === 'remove' && <p className="field-hint">{t('web.leverage.marginSheet.removeRule')}</p>}
        {error && (
          <Notice tone="error" testId="leverage-sheet-error">
            {error}
          </Notice>
        )}
        <Actions busy={change.isPending} onClose={onClose} confirmLabel={t('web.leverage.marginSheet.confirm')} testId="leverage-margin-confirm" />
      </form>
    </Sheet>
  );
}

/** A stored price as a field shows it: "61000", not "61000.00000000". */
const fieldPrice = (price: string | null) => (price === null ? '' : formatDecimal(price, 'en', { grouping: false }));

/** Set, change or clear take-profit and stop-loss, checked against the last price and the liquidation price. */
function TriggersSheet({ position, lastTick, onClose }: SheetProps) {
  const { t, locale } = useI18n();
  const refusal = useRefusalText();
  const errorText = useMoneyErrorText();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const save = useContractMutation(setPositionTriggersContract, { onSuccess: () => void invalidateContracts(client, changed) });
  const lastPrice = lastTick?.price ?? null;
  const limits = useRef({ side: position.side, lastPrice, liquidationPrice: position.liquidationPrice });
  limits.current = { side: position.side, lastPrice, liquidationPrice: position.liquidationPrice };
  const schema = useMemo(() => triggersFormSchema(() => limits.current), []);
  const form = useContractForm(schema, {
    defaultValues: { takeProfitPrice: fieldPrice(position.takeProfitPrice), stopLossPrice: fieldPrice(position.stopLossPrice) },
  });
  const money = (text: string | null) => (text === null ? '—' : formatDecimal(text, locale, { minFractionDigits: 2, maxFractionDigits: 8 }));
  const long = position.side === 'long';
  const own = {
    [leverageProblems.priceFormat]: t('web.leverage.problem.priceFormat'),
    [leverageProblems.takeProfitWrongSide]: t(long ? 'web.leverage.problem.aboveLast' : 'web.leverage.problem.belowLast', { price: money(lastPrice) }),
    [leverageProblems.stopLossWrongSide]: t(long ? 'web.leverage.problem.belowLast' : 'web.leverage.problem.aboveLast', { price: money(lastPrice) }),
    [leverageProblems.stopLossBeyondLiquidation]: t(long ? 'web.leverage.problem.aboveLiquidation' : 'web.leverage.problem.belowLiquidation', {
      price: money(position.liquidationPrice),
    }),
  };

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await save.mutateAsync({
        params: { positionId: position.id },
        body: { takeProfitPrice: priceOrNull(values.takeProfitPrice), stopLossPrice: priceOrNull(values.stopLossPrice) },
      });
      onClose();
    } catch (caught) {
      setError(refusal(caught));
    }
  });

  return (
    <Sheet title={t('web.leverage.triggers.title')} onClose={() => !save.isPending && onClose()} testId="leverage-triggers-sheet">
      <form className="options-form" onSubmit={(event: FormEvent) => void submit(event)} noValidate>
        <PositionHead position={position} />
        <dl className="facts options-figures">
          <div>
            <dt>{t('web.options.lastPrice')}</dt>
            <dd>{lastPrice ? <Amount value={lastPrice} max={8} /> : '—'}</dd>
          </div>
          <div>
            <dt>{t('web.leverage.liquidationPrice')}</dt>
            <dd>{position.liquidationPrice ? <Amount value={position.liquidationPrice} max={8} /> : t('web.leverage.noLiquidation')}</dd>
          </div>
        </dl>
        <TextField
          label={t('web.leverage.tpLabel')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          data-testid="leverage-triggers-tp"
          {...form.register('takeProfitPrice', { onChange: () => setError(null) })}
          error={errorText(form.formState.errors.takeProfitPrice, { own })}
        />
        <TextField
          label={t('web.leverage.slLabel')}
          inputMode="decimal"
          autoComplete="off"
          maxLength={40}
          data-testid="leverage-triggers-sl"
          {...form.register('stopLossPrice', { onChange: () => setError(null) })}
          error={errorText(form.formState.errors.stopLossPrice, { own })}
        />
        <p className="field-hint">{t('web.leverage.triggers.hint')}</p>
        {error && (
          <Notice tone="error" testId="leverage-sheet-error">
            {error}
          </Notice>
        )}
        <Actions busy={save.isPending} onClose={onClose} confirmLabel={t('web.leverage.triggers.save')} testId="leverage-triggers-save" />
      </form>
    </Sheet>
  );
}

/** The sheet that changes an open position: close, margin, or take-profit and stop-loss. */
export function PositionSheet({ kind, ...props }: SheetProps & { kind: 'close' | 'margin' | 'triggers' }) {
  if (kind === 'close') return <CloseSheet {...props} />;
  if (kind === 'margin') return <MarginSheet {...props} />;
  return <TriggersSheet {...props} />;
}
