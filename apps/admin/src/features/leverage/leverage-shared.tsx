import type { LeveragePosition } from '@keel/contracts';
import { formatEpochMs } from '../../shared/format.ts';
import { useI18n } from '../../shared/i18n.tsx';
import { Field } from '../finance/finance-shared.tsx';

export type Tick = LeveragePosition['openTick'];

/** A recorded tick as the position copied it: price, when the source observed it, the source, its id. */
export function TickFields({ tick, testId }: { tick: Tick; testId: string }) {
  const { t } = useI18n();
  return (
    <dl className="fields tick" data-testid={testId}>
      <Field label={t('admin.leverage.tick.price')} testId={`${testId}-price`}>
        {tick.price}
      </Field>
      <Field label={t('admin.leverage.tick.time')} testId={`${testId}-time`}>
        {formatEpochMs(tick.atMs, true)}
      </Field>
      <Field label={t('admin.leverage.tick.source')} testId={`${testId}-source`}>
        <code>{tick.source}</code>
      </Field>
      <Field label={t('admin.leverage.tick.id')} testId={`${testId}-id`}>
        {tick.tickId}
      </Field>
    </dl>
  );
}

/** "BTC/USDT · Futures · Long · 20x": what a position is, in one line. */
export function PositionKind({ position }: { position: Pick<LeveragePosition, 'symbol' | 'product' | 'side' | 'leverage'> }) {
  const { t } = useI18n();
  return (
    <>
      <strong>{position.symbol}</strong> · {t(`admin.leverage.product.${position.product}`)} ·{' '}
      <span data-testid="position-side">{t(`admin.leverage.side.${position.side}`)}</span> · {t('admin.leverage.multiple', { leverage: position.leverage })}
    </>
  );
}

/** The state of a position, with why it closed once it has. */
export function PositionStatus({ position }: { position: Pick<LeveragePosition, 'status' | 'closeReason'> }) {
  const { t } = useI18n();
  return (
    <>
      <span className={`status status-${position.status}`} data-testid="position-status">
        {t(`admin.leverage.status.${position.status}`)}
      </span>
      {position.closeReason && (
        <div className="muted" data-testid="position-close-reason">
          {t(`admin.leverage.closeReason.${position.closeReason}`)}
        </div>
      )}
    </>
  );
}

/** The read-only notice every leverage view opens with. */
export function ReadOnlyNotice() {
  const { t } = useI18n();
  return (
    <p className="notice" data-testid="leverage-read-only">
      {t('admin.leverage.readOnly')}
    </p>
  );
}
