import type { LeverageOverview, LeveragePosition, LeveragePositionEvent } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import type { ReactNode } from 'react';
import { formatDecimal } from '../../shared/format/decimal.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { DownIcon, UpIcon } from '../options/OptionsParts.tsx';
import { type LeverageProduct, type PositionSide, secondsText } from './leverage-logic.ts';

/** Small pieces the order form, the positions and the sheets share (and a desktop layout can). */

export const productKeys = {
  leveraged: 'web.leverage.product.leveraged',
  futures: 'web.leverage.product.futures',
} as const satisfies Record<LeverageProduct, MessageKey>;

export const sideKeys = {
  long: 'web.leverage.side.long',
  short: 'web.leverage.side.short',
} as const satisfies Record<PositionSide, MessageKey>;

export const closeReasonKeys = {
  user: 'web.leverage.reason.user',
  take_profit: 'web.leverage.reason.takeProfit',
  stop_loss: 'web.leverage.reason.stopLoss',
  liquidation: 'web.leverage.reason.liquidation',
} as const satisfies Record<NonNullable<LeveragePosition['closeReason']>, MessageKey>;

export const eventKindKeys = {
  open: 'web.leverage.event.open',
  close: 'web.leverage.event.close',
  take_profit: 'web.leverage.event.takeProfit',
  stop_loss: 'web.leverage.event.stopLoss',
  liquidation: 'web.leverage.event.liquidation',
  margin_add: 'web.leverage.event.marginAdd',
  margin_remove: 'web.leverage.event.marginRemove',
  triggers: 'web.leverage.event.triggers',
  funding: 'web.leverage.event.funding',
  interest: 'web.leverage.event.interest',
} as const satisfies Record<LeveragePositionEvent['kind'], MessageKey>;

/** "Long" or "Short" with its arrow, coloured. */
export function SideTag({ side, testId }: { side: PositionSide; testId?: string }) {
  const { t } = useI18n();
  return (
    <span className={`leverage-side-tag ${side}`} data-side={side} data-testid={testId}>
      {side === 'long' ? <UpIcon /> : <DownIcon />}
      {t(sideKeys[side])}
    </span>
  );
}

/** "20x". */
export function LeverageTag({ leverage }: { leverage: number }) {
  const { t } = useI18n();
  return <span className="leverage-tag">{t('web.leverage.times', { leverage })}</span>;
}

/** A time as the spec writes it. */
export const timeText = (ms: number) => formatDateTime(new Date(ms).toISOString());

/** A list of recorded tick ids: "#12, #13, #14". */
export function TickIds({ ids, testId }: { ids: readonly string[]; testId?: string }) {
  return (
    <bdi dir="ltr" className="mono leverage-tick-ids" data-testid={testId} data-tick-ids={ids.join(',')}>
      {ids.map((id) => `#${id}`).join(', ')}
    </bdi>
  );
}

/** A number written into a sentence, the locale's way: a published percent ("0.10"), a rate, seconds, a USDT limit. */
export function useNumberText() {
  const { locale } = useI18n();
  return (text: string, minFractionDigits = 0) => formatDecimal(text, locale, { minFractionDigits, maxFractionDigits: 8 });
}

/**
 * The published costs and rules as sentences: fee, spread, the product's charge (funding or
 * interest, given by the caller: one market's rate in the trade screen's sheet; none on the
 * transparency page, which lists every rate), liquidation, the exposure limit, the price age.
 */
export function LeverageRuleList({ rules, charge }: { rules: LeverageOverview['rules']; charge?: ReactNode }) {
  const { t } = useI18n();
  const num = useNumberText();
  return (
    <ul className="leverage-rules-list">
      <li>{t('web.leverage.rules.fee', { fee: num(rules.tradingFeePercent, 2) })}</li>
      <li>{t('web.leverage.rules.spread', { spread: num(rules.openSpreadPercent, 2) })}</li>
      {charge !== undefined && <li data-testid="leverage-rules-charge">{charge}</li>}
      <li>{t('web.leverage.rules.liquidation', { fee: num(rules.liquidationFeePercent, 2) })}</li>
      <li>{t('web.leverage.rules.exposure', { limit: num(rules.exposureLimit) })}</li>
      <li>{t('web.leverage.rules.priceAge', { seconds: num(secondsText(rules.openTickMaxAgeMs)) })}</li>
      <li>{t('web.leverage.rules.nobody')}</li>
    </ul>
  );
}

/** A product's position-size brackets: the bound, the highest leverage, the maintenance rate and amount. */
export function BracketsTable({ brackets, testId = 'leverage-brackets' }: { brackets: LeverageOverview['products'][number]['brackets']; testId?: string }) {
  const { t } = useI18n();
  return (
    <table className="leverage-brackets" data-testid={testId}>
      <caption>{t('web.leverage.brackets.title')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('web.leverage.brackets.upTo')}</th>
          <th scope="col">{t('web.leverage.brackets.maxLeverage')}</th>
          <th scope="col">{t('web.leverage.brackets.rate')}</th>
          <th scope="col">{t('web.leverage.brackets.amount')}</th>
        </tr>
      </thead>
      <tbody>
        {brackets.map((bracket, index) => (
          <tr key={bracket.upTo} data-testid={`${testId}-${index}`} data-up-to={bracket.upTo} data-rate={bracket.maintenanceRatePercent}>
            <td>
              <Amount value={bracket.upTo} min={0} max={2} />
            </td>
            <td className="num">{t('web.leverage.times', { leverage: bracket.maxLeverage })}</td>
            <td>
              <Amount value={bracket.maintenanceRatePercent} suffix=" %" />
            </td>
            <td>
              <Amount value={bracket.maintenanceAmount} max={6} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
