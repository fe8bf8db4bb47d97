import { type ContractData, errorCatalogue, errorKeyFromMsg, type getC2cOptionsContract } from '@keel/contracts';
import type { C2cKind } from '@keel/domain';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { formatDecimal, intlLocale } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Notice } from '../../shared/ui/components.tsx';
import { Fact, type Refused, RefusalNotice } from '../wallet/WalletParts.tsx';
import { type C2cRequest, c2cDeadline, c2cMessageKey, c2cStateKey, c2cStateTone, formatCountdown, unfinishedOrderIdOf } from './c2c-figures.ts';
import './c2c.css';

export type C2cOptions = ContractData<typeof getC2cOptionsContract>;
export type C2cCountryOption = C2cOptions['countries'][number];

/** A fiat amount: two decimals and its ISO code, left to right in every language. */
export function FiatAmount({ value, currency, testId }: { value: string; currency: string; testId?: string }) {
  return <Amount value={value} unit={currency} min={2} max={2} testId={testId} />;
}

/** A USDT amount (two to six decimals). */
export function UsdtAmount({ value, testId }: { value: string; testId?: string }) {
  return <Amount value={value} unit="USDT" min={2} max={6} testId={testId} />;
}

/** A price: "0.92 EUR / USDT". */
export function PriceText({ value, currency, testId }: { value: string; currency: string; testId?: string }) {
  return <Amount value={value} unit={`${currency}/USDT`} min={2} max={2} testId={testId} />;
}

/** A USDT amount inside a sentence: two to six decimals, the unit after it, isolated left to right (U+2066 … U+2069). */
export function useUsdtText(): (value: string) => string {
  const { locale } = useI18n();
  return useMemo(() => (value: string) => `\u2066${formatDecimal(value, locale, { minFractionDigits: 2, maxFractionDigits: 6 })} USDT\u2069`, [locale]);
}

/** A price inside a sentence: "0.92 EUR/USDT", isolated left to right. */
export function usePriceText(): (value: string, currency: string) => string {
  const { locale } = useI18n();
  return useMemo(() => (value: string, currency: string) => `\u2066${formatDecimal(value, locale, { minFractionDigits: 2, maxFractionDigits: 2 })} ${currency}/USDT\u2069`, [locale]);
}

/** A country's name in the user's language (the code where the browser knows none). */
export function useCountryName(): (code: string) => string {
  const { locale } = useI18n();
  return useMemo(() => {
    let names: Intl.DisplayNames | undefined;
    try {
      names = new Intl.DisplayNames([intlLocale(locale), 'en'], { type: 'region', fallback: 'code' });
    } catch {
      names = undefined;
    }
    return (code: string) => names?.of(code) ?? code;
  }, [locale]);
}

/** The spec's state of an order as a badge. */
export function C2cStateBadge({ status, testId }: { status: C2cRequest['status']; testId?: string }) {
  const { t } = useI18n();
  return (
    <span className={`state-badge wallet-status wallet-status-${c2cStateTone(status)}`} data-status={status} data-testid={testId}>
      {t(c2cStateKey(status))}
    </span>
  );
}

/** What the order's state means for the user and what to do now. */
export function C2cStatusMessage({ request }: { request: C2cRequest }) {
  const { t } = useI18n();
  const key = c2cMessageKey(request);
  return (
    <p className="c2c-status-message" data-testid="c2c-status-message" data-message={key}>
      {t(key)}
    </p>
  );
}

/** The deadline that runs now, counted down on the device's clock (the server's job decides when it is over). */
export function C2cCountdown({ request, now }: { request: C2cRequest; now: number }) {
  const { t } = useI18n();
  const deadline = c2cDeadline(request, now);
  if (!deadline) return null;
  const label =
    deadline.kind === 'match'
      ? t('web.c2c.countdown.match')
      : deadline.kind === 'confirm'
        ? t('web.c2c.countdown.confirm')
        : request.kind === 'deposit'
          ? t('web.c2c.countdown.pay')
          : t('web.c2c.countdown.merchantPays');
  const over = deadline.remainingMs <= 0;
  return (
    <div className={over ? 'c2c-countdown is-over' : 'c2c-countdown'} role="timer" aria-live="off" data-testid="c2c-countdown" data-deadline={deadline.kind}>
      <span className="muted">{label}</span>
      <bdi dir="ltr" className="num c2c-countdown-value" data-testid="c2c-countdown-value" data-remaining-ms={deadline.remainingMs}>
        {formatCountdown(deadline.remainingMs)}
      </bdi>
      {over && <span className="field-hint warning-text">{t('web.c2c.countdown.over')}</span>}
    </div>
  );
}

/** The published windows of the channel, as facts. */
export function C2cWindows({ windows, kind }: { windows: C2cOptions['windows']; kind: C2cKind }) {
  const { t } = useI18n();
  return (
    <dl className="facts c2c-windows" data-testid="c2c-windows">
      <Fact label={t('web.c2c.windows.match')} testId="c2c-window-match">
        {t('web.c2c.windows.minutes', { count: windows.matchMinutes })}
      </Fact>
      <Fact label={t('web.c2c.windows.offer')} testId="c2c-window-offer">
        {t('web.c2c.windows.seconds', { count: windows.offerSeconds })}
      </Fact>
      <Fact label={kind === 'deposit' ? t('web.c2c.windows.pay') : t('web.c2c.windows.merchantPays')} testId="c2c-window-pay">
        {t('web.c2c.windows.minutes', { count: windows.paymentMinutes })}
      </Fact>
      {kind === 'withdrawal' && (
        <Fact label={t('web.c2c.windows.confirm')} testId="c2c-window-confirm">
          {t('web.c2c.windows.minutes', { count: windows.confirmMinutes })}
        </Fact>
      )}
    </dl>
  );
}

/** The switch between the crypto channel and C2C (fiat through a merchant), as links: each is a page of its own. */
export function C2cChannelSwitch({ direction, current }: { direction: 'deposit' | 'withdrawal'; current: 'crypto' | 'c2c' }) {
  const { t } = useI18n();
  const links =
    direction === 'deposit'
      ? { crypto: '/assets/recharge', c2c: '/assets/recharge?via=c2c' }
      : { crypto: '/assets/withdraw', c2c: '/assets/C2CWithdrawal/select' };
  return (
    <nav className="segmented c2c-switch" aria-label={direction === 'deposit' ? t('web.c2c.switch.depositLabel') : t('web.c2c.switch.withdrawalLabel')}>
      {(['crypto', 'c2c'] as const).map((each) => (
        <Link
          key={each}
          to={links[each]}
          replace
          className={each === current ? 'segmented-option active' : 'segmented-option'}
          aria-current={each === current ? 'page' : undefined}
          data-testid={`${direction}-via-${each}`}
        >
          {each === 'crypto' ? t('web.c2c.switch.crypto') : t('web.c2c.switch.c2c')}
        </Link>
      ))}
    </nav>
  );
}

/** The spec's "a user with an unfinished payment order is told to complete it", with the way to it. */
export function UnfinishedOrderNotice({ orderId, testId = 'c2c-unfinished' }: { orderId: string; testId?: string }) {
  const { t, tServer } = useI18n();
  return (
    <Notice tone="warning" title={tServer(errorCatalogue.C2C_ORDER_UNFINISHED.msg)} testId={testId}>
      <p>{t('web.c2c.unfinished.body')}</p>
      <Link to={`/assets/C2CDeposit/${orderId}`} className="btn btn-primary btn-small" data-testid={`${testId}-link`}>
        {t('web.c2c.unfinished.link')}
      </Link>
    </Notice>
  );
}

/**
 * A refused C2C call: the unfinished order with its link, no merchant, advanced verification, and
 * every other refusal as the withdrawal form words it (the withdrawal rules, the balance, the
 * payment password, identity verification). A changed price is the confirmation's to show.
 */
export function C2cRefusalNotice({ refused, testId = 'c2c-refusal' }: { refused: Refused; testId?: string }) {
  const { t, tServer } = useI18n();
  const key = errorKeyFromMsg(refused.message);
  if (key === 'C2C_ORDER_UNFINISHED') {
    const orderId = unfinishedOrderIdOf(refused.data);
    return (
      <div className="refusal" data-error={key}>
        {orderId ? (
          <UnfinishedOrderNotice orderId={orderId} testId={testId} />
        ) : (
          <Notice tone="error" title={tServer(refused.message)} testId={testId}>
            <p>{t('web.c2c.unfinished.body')}</p>
          </Notice>
        )}
      </div>
    );
  }
  if (key === 'C2C_NO_MERCHANT' || key === 'ADVANCED_VERIFICATION_REQUIRED') {
    return (
      <div className="refusal" data-error={key}>
        <Notice tone="error" title={tServer(refused.message)} testId={testId}>
          <p>{key === 'C2C_NO_MERCHANT' ? t('web.c2c.refusal.noMerchant') : t('web.c2c.refusal.advanced')}</p>
          {key === 'ADVANCED_VERIFICATION_REQUIRED' && (
            <Link to="/person/advanced" className="btn btn-secondary btn-small" data-testid={`${testId}-advanced`}>
              {t('web.c2c.refusal.advancedLink')}
            </Link>
          )}
        </Notice>
      </div>
    );
  }
  return <RefusalNotice message={refused.message} data={refused.data} asset="USDT" testId={testId} />;
}
