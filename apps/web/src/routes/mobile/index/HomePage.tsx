import { userDisplayName } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useMe } from '../../../features/profile/useMe.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice } from '../../../shared/ui/components.tsx';
import { CheckIcon, ChevronIcon, ClockIcon, DocumentIcon, LogoMark, MineIcon, ShieldIcon } from '../../../shared/ui/icons.tsx';

const available: MessageKey[] = [
  'web.home.statusAccount',
  'web.home.statusAssets',
  'web.home.statusMarket',
  'web.home.statusLanguage',
  'web.home.statusSupport',
];
const principles: MessageKey[] = ['web.home.principleLedger', 'web.home.principleMarket', 'web.home.principleFees'];

function QuickLink({ to, icon, label }: { to: string; icon: ReactNode; label: string }) {
  return (
    <Link to={to} className="list-link">
      <span className="list-link-icon">{icon}</span>
      <span className="list-link-label">{label}</span>
      <ChevronIcon />
    </Link>
  );
}

/** /index: a greeting, the honest state of the product, and links to pages that exist. */
export function HomePage() {
  const { t } = useI18n();
  const { user, failed, reload } = useMe();
  return (
    <div className="page">
      <header className="home-hero">
        <LogoMark size={40} />
        <div>
          <p className="home-hero-brand">{t('web.app.name')}</p>
          <h1 data-testid="greeting">{user ? t('web.home.greeting', { name: userDisplayName(user) }) : t('web.home.welcome')}</h1>
        </div>
      </header>
      {failed && <LoadFailedNotice onRetry={reload} />}
      <Card>
        <h2 className="card-title">{t('web.home.statusTitle')}</h2>
        <ul className="status-list">
          {available.map((key) => (
            <li key={key} className="status-item status-ok">
              <CheckIcon />
              <span>{t(key)}</span>
            </li>
          ))}
          <li className="status-item status-pending">
            <ClockIcon />
            <span>{t('web.home.statusClosed')}</span>
          </li>
        </ul>
      </Card>
      <Card className="card-accent">
        <h2 className="card-title">
          <ShieldIcon />
          {t('web.home.principlesTitle')}
        </h2>
        <ul className="principle-list">
          {principles.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
      </Card>
      <Card>
        <h2 className="card-title">{t('web.home.quickLinks')}</h2>
        <nav className="list">
          <QuickLink to="/my" icon={<MineIcon />} label={t('web.home.linkProfile')} />
          <QuickLink to="/agreement" icon={<DocumentIcon />} label={t('web.legal.agreementTitle')} />
          <QuickLink to="/terms" icon={<DocumentIcon />} label={t('web.legal.termsTitle')} />
        </nav>
      </Card>
    </div>
  );
}
