import { securityOverviewContract } from '@keel/contracts';
import { loadFailed, useContractQuery } from '../../shared/api/queries.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { LanguageSwitcher } from '../../shared/i18n/LanguageSwitcher.tsx';
import { formatDateTime } from '../../shared/format/time.ts';
import { Card, LoadFailedNotice, Notice, PageHeader } from '../../shared/ui/components.tsx';
import { CardIcon, ClockIcon, DocumentIcon, MineIcon, ShieldIcon, WalletIcon } from '../../shared/ui/icons.tsx';
import { useMe } from '../profile/useMe.ts';
import { SettingsRow } from './SettingsRow.tsx';
import '../auth/auth.css';

/**
 * /person/setting (spec section 2): phone, e-mail, nickname, login and payment passwords, two-step
 * login, contact methods, anti-phishing code, active sessions, bank cards (/person/setting/bank),
 * withdrawal addresses, language and version.
 */
export function SettingsPage() {
  const { t } = useI18n();
  const { user } = useMe();
  const security = useContractQuery(securityOverviewContract);
  const overview = security.data;
  const state = (set: boolean | undefined) => (set === undefined ? '' : set ? t('web.settings.set') : t('web.settings.notSet'));
  return (
    <div className="page page-narrow">
      <PageHeader title={t('web.settings.title')} backTo="/my" />
      {loadFailed(security) && <LoadFailedNotice onRetry={() => void security.refetch()} />}
      {overview?.withdrawalsLockedUntil && (
        <Notice tone="warning" title={t('web.settings.lockTitle')} testId="withdrawal-lock">
          {t('web.settings.lockBody', { time: formatDateTime(overview.withdrawalsLockedUntil) })}
        </Notice>
      )}
      <Card>
        <h2 className="card-title">
          <MineIcon />
          {t('web.settings.account')}
        </h2>
        <nav className="list" aria-label={t('web.settings.account')}>
          <SettingsRow to="/safeSetting/phone" icon={<MineIcon />} label={t('web.settings.phone')} value={overview ? (overview.phone ?? t('web.settings.notBound')) : ''} testId="setting-phone" />
          <SettingsRow to="/safeSetting/email" icon={<MineIcon />} label={t('web.settings.email')} value={overview ? (overview.email ?? t('web.settings.notBound')) : ''} testId="setting-email" />
          <SettingsRow
            to="/safeSetting/nickname"
            icon={<MineIcon />}
            label={t('web.settings.nickname')}
            value={user ? (user.nickname ?? t('web.settings.notSet')) : ''}
            testId="setting-nickname"
          />
          <SettingsRow
            to="/safeSetting/contact"
            icon={<DocumentIcon />}
            label={t('web.settings.contactMethods')}
            value={overview ? t('web.settings.contactCount', { count: overview.contactMethods.length }) : ''}
            testId="setting-contact"
          />
        </nav>
      </Card>
      <Card>
        <h2 className="card-title">
          <ShieldIcon />
          {t('web.settings.security')}
        </h2>
        <nav className="list" aria-label={t('web.settings.security')}>
          <SettingsRow to="/person/setting/changepassword" icon={<ShieldIcon />} label={t('web.settings.loginPassword')} testId="setting-login-password" />
          <SettingsRow
            to="/person/setting/paypassword"
            icon={<ShieldIcon />}
            label={t('web.settings.paymentPassword')}
            value={state(overview?.paymentPasswordSet)}
            testId="setting-payment-password"
          />
          <SettingsRow
            to="/safeSetting/totp"
            icon={<ShieldIcon />}
            label={t('web.settings.totp')}
            value={overview ? (overview.totpEnabled ? t('web.settings.on') : t('web.settings.off')) : ''}
            testId="setting-totp"
          />
          <SettingsRow to="/safeSetting/wallet" icon={<WalletIcon />} label={t('web.settings.wallet')} testId="setting-wallet" />
          <SettingsRow
            to="/safeSetting/antiphishing"
            icon={<ShieldIcon />}
            label={t('web.settings.antiPhishing')}
            value={state(overview?.antiPhishingCodeSet)}
            testId="setting-antiphishing"
          />
          <SettingsRow to="/safeSetting/sessions" icon={<ClockIcon />} label={t('web.settings.sessions')} testId="setting-sessions" />
        </nav>
      </Card>
      <Card>
        <h2 className="card-title">
          <WalletIcon />
          {t('web.wallet.settingsSection')}
        </h2>
        <nav className="list" aria-label={t('web.wallet.settingsSection')}>
          <SettingsRow to="/person/setting/bank" icon={<CardIcon />} label={t('web.card.title')} testId="setting-bank" />
          <SettingsRow to="/assets/WalletAddress/manage" icon={<WalletIcon />} label={t('web.address.title')} testId="setting-addresses" />
        </nav>
      </Card>
      <Card>
        <LanguageSwitcher />
        <dl className="facts">
          <div>
            <dt>{t('web.my.version')}</dt>
            <dd data-testid="settings-version">{__APP_VERSION__}</dd>
          </div>
        </dl>
      </Card>
    </div>
  );
}
