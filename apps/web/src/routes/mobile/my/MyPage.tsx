import { logoutContract, type UserStatus, userDisplayName } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMe } from '../../../features/profile/useMe.ts';
import { api } from '../../../shared/api/client.ts';
import { session } from '../../../shared/api/session.ts';
import { formatDate } from '../../../shared/format/time.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { LanguageSwitcher } from '../../../shared/i18n/LanguageSwitcher.tsx';
import { Button, Card, LoadFailedNotice } from '../../../shared/ui/components.tsx';
import { ChevronIcon, DocumentIcon, ShieldIcon } from '../../../shared/ui/icons.tsx';
import { useToast } from '../../../shared/ui/toast.tsx';

const statusKeys: Record<UserStatus, MessageKey> = {
  active: 'web.my.status.active',
  suspended: 'web.my.status.suspended',
  banned: 'web.my.status.banned',
  withdrawal_forbidden: 'web.my.status.withdrawal_forbidden',
};

const canCopy = () => typeof navigator !== 'undefined' && typeof navigator.clipboard?.writeText === 'function';

/** /my: the personal centre: profile, language, legal documents, the proof of liabilities and the transparency page, version and logout. */
export function MyPage() {
  const { t } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const { user, failed, reload } = useMe();
  const [leaving, setLeaving] = useState(false);

  async function logout() {
    setLeaving(true);
    // The session ends on this device whatever the server answers; a failed call only means the
    // token expires on its own.
    await api(logoutContract).catch(() => {});
    session.clear('logout');
    navigate('/login', { replace: true });
  }

  async function copyInviteCode(code: string) {
    try {
      await navigator.clipboard.writeText(code);
      toast(t('web.my.copied'));
    } catch {
      // Permission refused: the code stays visible to copy by hand.
    }
  }

  return (
    <div className="page">
      <h1 className="page-title">{t('web.tab.mine')}</h1>
      {failed && <LoadFailedNotice onRetry={reload} />}
      <Card className="profile-card">
        <div className="profile-head">
          <span className="avatar" aria-hidden="true">
            {(user ? userDisplayName(user) : '·').slice(0, 1).toUpperCase()}
          </span>
          <div>
            <p className="profile-name" data-testid="profile-username">
              {user ? userDisplayName(user) : t('web.common.loading')}
            </p>
            {user && (
              <span className={`badge badge-${user.status}`} data-testid="profile-status">
                {t(statusKeys[user.status])}
              </span>
            )}
          </div>
        </div>
        {user && (
          <dl className="facts">
            {user.username !== null && (
              <div>
                <dt>{t('web.my.username')}</dt>
                <dd>{user.username}</dd>
              </div>
            )}
            <div>
              <dt>{t('web.my.inviteCode')}</dt>
              <dd className="facts-with-action">
                <span className="mono" data-testid="profile-invite-code">
                  {user.inviteCode}
                </span>
                {canCopy() && (
                  <Button variant="ghost" className="btn-small" onClick={() => void copyInviteCode(user.inviteCode)}>
                    {t('web.my.copy')}
                  </Button>
                )}
                <Link to="/trade/sgrinvite" className="btn btn-ghost btn-small" data-testid="profile-invite-page">
                  {t('web.my.invitePage')}
                </Link>
              </dd>
            </div>
            <div>
              <dt>{t('web.my.memberSince')}</dt>
              <dd>{formatDate(user.createdAt)}</dd>
            </div>
            <div>
              <dt>{t('web.my.status')}</dt>
              <dd>{t(statusKeys[user.status])}</dd>
            </div>
          </dl>
        )}
      </Card>

      <Card>
        <h2 className="card-title">{t('web.settings.accountAndSecurity')}</h2>
        <nav className="list" aria-label={t('web.settings.accountAndSecurity')}>
          <Link to="/person/setting" className="list-link" data-testid="my-settings">
            <span className="list-link-icon">
              <ShieldIcon />
            </span>
            <span className="list-link-label">{t('web.settings.title')}</span>
            <ChevronIcon />
          </Link>
          <Link to="/person/authentication" className="list-link" data-testid="my-verification">
            <span className="list-link-icon">
              <DocumentIcon />
            </span>
            <span className="list-link-label">{t('web.verification.centreTitle')}</span>
            <ChevronIcon />
          </Link>
          <Link to="/person/Loan" className="list-link" data-testid="my-loans">
            <span className="list-link-icon">
              <DocumentIcon />
            </span>
            <span className="list-link-label">{t('web.my.loans')}</span>
            <ChevronIcon />
          </Link>
          <Link to="/fund" className="list-link" data-testid="my-fund">
            <span className="list-link-icon">
              <DocumentIcon />
            </span>
            <span className="list-link-label">{t('web.my.fund')}</span>
            <ChevronIcon />
          </Link>
        </nav>
      </Card>

      <Card>
        <h2 className="card-title">{t('web.my.settings')}</h2>
        <LanguageSwitcher />
      </Card>

      <Card>
        <h2 className="card-title">{t('web.my.legal')}</h2>
        <nav className="list">
          <Link to="/agreement" className="list-link">
            <span className="list-link-icon">
              <DocumentIcon />
            </span>
            <span className="list-link-label">{t('web.legal.agreementTitle')}</span>
            <ChevronIcon />
          </Link>
          <Link to="/terms" className="list-link">
            <span className="list-link-icon">
              <DocumentIcon />
            </span>
            <span className="list-link-label">{t('web.legal.termsTitle')}</span>
            <ChevronIcon />
          </Link>
          <Link to="/my/vip" className="list-link" data-testid="my-vip">
            <span className="list-link-icon">
              <ShieldIcon />
            </span>
            <span className="list-link-label">{t('web.vip.nav')}</span>
            <ChevronIcon />
          </Link>
          <Link to="/proof" className="list-link" data-testid="my-proof">
            <span className="list-link-icon">
              <ShieldIcon />
            </span>
            <span className="list-link-label">{t('web.my.proof')}</span>
            <ChevronIcon />
          </Link>
          <Link to="/transparency" className="list-link" data-testid="my-transparency">
            <span className="list-link-icon">
              <ShieldIcon />
            </span>
            <span className="list-link-label">{t('web.my.transparency')}</span>
            <ChevronIcon />
          </Link>
        </nav>
      </Card>

      <Card>
        <h2 className="card-title">{t('web.my.about')}</h2>
        <nav className="list" aria-label={t('web.my.about')}>
          <Link to="/helpcenter" className="list-link" data-testid="my-helpcenter">
            <span className="list-link-icon">
              <DocumentIcon />
            </span>
            <span className="list-link-label">{t('web.my.helpCentre')}</span>
            <ChevronIcon />
          </Link>
          <Link to="/aboutus" className="list-link" data-testid="my-aboutus">
            <span className="list-link-icon">
              <DocumentIcon />
            </span>
            <span className="list-link-label">{t('web.my.aboutUs')}</span>
            <ChevronIcon />
          </Link>
        </nav>
        <dl className="facts">
          <div>
            <dt>{t('web.my.version')}</dt>
            <dd data-testid="app-version">{__APP_VERSION__}</dd>
          </div>
        </dl>
      </Card>

      <Button variant="danger" block busy={leaving} onClick={() => void logout()} data-testid="logout">
        {t('web.my.logout')}
      </Button>
    </div>
  );
}
