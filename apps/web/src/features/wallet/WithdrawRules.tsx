import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Card, Notice } from '../../shared/ui/components.tsx';
import { ShieldIcon } from '../../shared/ui/icons.tsx';
import { percentText } from '../assets/user-transfer.ts';
import { Fact, Time, useRefusalFormat, type WalletOverview } from './WalletParts.tsx';

/**
 * The published withdrawal rules (decisions page 1.3) and, with a `standing`, where the user stands
 * against them today: the same values the server enforces, so a refusal is never a surprise. The
 * transparency page shows the rules alone (no user), with every tier's limit in view.
 */
export function WithdrawRules({ rules, standing, now = 0 }: { rules: WalletOverview['rules']; standing?: WalletOverview['standing']; now?: number }) {
  const { t, locale } = useI18n();
  const format = useRefusalFormat();
  const lockedUntil = standing?.withdrawalsLockedUntil && Date.parse(standing.withdrawalsLockedUntil) > now ? standing.withdrawalsLockedUntil : null;
  return (
    <Card className="rules-card">
      <h2 className="card-title" id="withdraw-rules-title">
        <ShieldIcon />
        {t('web.withdraw.rules.title')}
      </h2>
      <p className="muted">{t('web.withdraw.rules.intro')}</p>
      {standing?.withdrawalForbidden && (
        <Notice tone="error" testId="rules-forbidden">
          {t('web.withdraw.refusal.forbidden')}
        </Notice>
      )}
      {!rules.withdrawalsOpen && (
        <Notice tone="warning" testId="rules-closed">
          {t('web.withdraw.refusal.closed')}
        </Notice>
      )}
      {lockedUntil && (
        <Notice tone="warning" title={t('web.withdraw.rules.lockedTitle')} testId="rules-locked-until">
          {t('web.withdraw.rules.lockedBody', { hours: rules.passwordChangeLockHours })} <Time iso={lockedUntil} />
        </Notice>
      )}
      {standing?.tier === 0 && (
        <Notice tone="warning" testId="rules-verify">
          {t('web.withdraw.refusal.identity')}{' '}
          <Link to="/person/authentication" data-testid="rules-verify-link">
            {t('web.withdraw.refusal.verifyLink')}
          </Link>
        </Notice>
      )}
      <dl className="facts" aria-labelledby="withdraw-rules-title" data-testid="withdraw-rules">
        <Fact label={t('web.withdraw.rules.status')} testId="rules-open">
          <span data-open={rules.withdrawalsOpen ? 'true' : 'false'}>{rules.withdrawalsOpen ? t('web.withdraw.rules.open') : t('web.withdraw.rules.closed')}</span>
        </Fact>
        <Fact label={t('web.withdraw.rules.window')} testId="rules-window">
          {rules.window ? (
            <bdi dir="ltr" className="num">
              {t('web.withdraw.rules.windowValue', { from: rules.window.from, to: rules.window.to, timeZone: rules.window.timeZone })}
            </bdi>
          ) : (
            t('web.withdraw.rules.anyTime')
          )}
        </Fact>
        <Fact label={t('web.withdraw.rules.count')} testId="rules-count">
          {standing
            ? t('web.withdraw.rules.countValue', { used: standing.withdrawalsToday, limit: rules.dailyCountLimit })
            : t('web.transparency.rules.countLimit', { limit: rules.dailyCountLimit })}
        </Fact>
        {standing && (
          <>
            <Fact label={t('web.withdraw.rules.tierLimit', { tier: standing.tier })} testId="rules-limit">
              <Amount value={standing.dailyLimitUsdt} unit="USDT" />
            </Fact>
            <Fact label={t('web.withdraw.rules.usedToday')} testId="rules-used">
              <Amount value={standing.usedTodayUsdt} unit="USDT" />
            </Fact>
            <Fact label={t('web.withdraw.rules.remainingToday')} testId="rules-remaining">
              <Amount value={standing.remainingTodayUsdt} unit="USDT" />
            </Fact>
          </>
        )}
        <Fact label={t('web.withdraw.rules.addressHold')} testId="rules-address-hold">
          {t('web.withdraw.rules.hoursValue', { hours: rules.addressHoldHours })}
        </Fact>
        <Fact label={t('web.withdraw.rules.passwordLock')} testId="rules-password-lock">
          {t('web.withdraw.rules.hoursValue', { hours: rules.passwordChangeLockHours })}
        </Fact>
        <Fact label={t('web.withdraw.rules.twoPersonValue')} testId="rules-two-person">
          <Amount value={rules.twoPersonReviewAboveUsdt} unit="USDT" />
        </Fact>
        <Fact label={t('web.withdraw.rules.twoPersonStaff', { hours: rules.twoPersonReview.windowHours })} testId="rules-two-person-staff">
          <Amount value={rules.twoPersonReview.staffAloneLimitUsdt} unit="USDT" />
        </Fact>
        <Fact label={t('web.withdraw.rules.twoPersonUser', { hours: rules.twoPersonReview.windowHours })} testId="rules-two-person-user">
          <Amount value={rules.twoPersonReview.userAloneLimitUsdt} unit="USDT" />
        </Fact>
        <Fact label={t('web.withdraw.rules.correctionAdmin')} testId="rules-correction-admin">
          <Amount value={rules.twoPersonReview.correctionAdminAboveUsdt} unit="USDT" />
        </Fact>
      </dl>
      <p className="field-hint" data-testid="rules-user-transfer" data-value={rules.userTransferFeePercent}>
        {t('web.withdraw.rules.userTransfer', { percent: percentText(rules.userTransferFeePercent, locale) })}
      </p>
      <p className="field-hint" data-testid="rules-two-person-note">
        {t('web.withdraw.rules.twoPersonNote', { appeal: format.amount(rules.twoPersonReview.appealAboveUsdt) })}
      </p>
      <details className="prices-used" data-testid="rules-tiers" open={!standing}>
        <summary>{t('web.withdraw.rules.tiers')}</summary>
        <ul>
          <li>
            {t('web.withdraw.rules.tier0')} <Amount value={rules.tierDailyLimitsUsdt.tier0} unit="USDT" />
          </li>
          <li>
            {t('web.withdraw.rules.tier1')} <Amount value={rules.tierDailyLimitsUsdt.tier1} unit="USDT" />
          </li>
          <li>
            {t('web.withdraw.rules.tier2')} <Amount value={rules.tierDailyLimitsUsdt.tier2} unit="USDT" />
          </li>
        </ul>
      </details>
      <p className="field-hint">{t('web.withdraw.rules.utcNote')}</p>
    </Card>
  );
}
