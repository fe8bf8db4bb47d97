import type { OptionOrder, OptionsOverview } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { formatDecimal } from '../../shared/format/decimal.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { closeDelaySeconds, type OrderResult } from './options-logic.ts';

/** Small pieces shared by the form, the open orders and the history. */

export const directionKeys = {
  up: 'web.options.direction.up',
  down: 'web.options.direction.down',
} as const satisfies Record<OptionOrder['direction'], MessageKey>;

export const resultKeys = {
  open: 'web.options.result.open',
  profit: 'web.options.result.profit',
  loss: 'web.options.result.loss',
  flat: 'web.options.result.flat',
  void: 'web.options.result.void',
} as const satisfies Record<OrderResult, MessageKey>;

export function UpIcon() {
  return (
    <svg className="icon" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
      <path d="M4 17 10 11l4 4 6-7" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M15 8h5v5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function DownIcon() {
  return (
    <svg className="icon" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
      <path d="M4 7l6 6 4-4 6 7" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M15 16h5v-5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** "Up" or "Down" with its arrow, coloured. */
export function DirectionTag({ direction }: { direction: OptionOrder['direction'] }) {
  const { t } = useI18n();
  return (
    <span className={`options-direction-tag ${direction}`} data-direction={direction}>
      {direction === 'up' ? <UpIcon /> : <DownIcon />}
      {t(directionKeys[direction])}
    </span>
  );
}

/** A cycle length as the user reads it: "30 s", "5 min". */
export function useCycleText() {
  const { t } = useI18n();
  return (seconds: number) =>
    seconds >= 60 && seconds % 60 === 0 ? t('web.options.cycle.minutes', { minutes: seconds / 60 }) : t('web.options.cycle.seconds', { seconds });
}

/** One recorded tick, every fact of it: time, price, source and id. */
export function TickFacts({ tick, testId, label }: { tick: OptionOrder['openTick']; testId: string; label: string }) {
  const { t } = useI18n();
  return (
    <div className="options-tick" data-testid={testId} data-tick-id={tick.tickId}>
      <span className="options-tick-label">{label}</span>
      <span className="options-tick-price">
        <Amount value={tick.price} max={8} testId={`${testId}-price`} />
      </span>
      <span className="muted options-tick-meta">
        <span data-testid={`${testId}-time`}>{formatDateTime(new Date(tick.atMs).toISOString())}</span>
        {' · '}
        {t('web.options.tick.source', { source: tick.source })}
        {' · '}
        <span data-testid={`${testId}-id`}>{t('web.options.tick.id', { id: tick.tickId })}</span>
      </span>
    </div>
  );
}

/** The settlement rule in words, with the void delay from the overview (the order form and the transparency page). */
export function SettlementRule({ rule }: { rule: OptionsOverview['rule'] }) {
  const { t, locale } = useI18n();
  return (
    <p className="options-rule" data-testid="options-rule">
      {t('web.options.rule', { seconds: formatDecimal(closeDelaySeconds(rule), locale) })}
    </p>
  );
}

/** The stake range of a product in words: "10.00 – 5,000.00 USDT". */
export function RangeText({ min, max }: { min: string; max: string }) {
  return (
    <bdi dir="ltr" className="num">
      <Amount value={min} /> – <Amount value={max} unit="USDT" />
    </bdi>
  );
}
