import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { LanguageSwitcher } from '../../shared/i18n/LanguageSwitcher.tsx';
import { LogoMark } from '../../shared/ui/icons.tsx';

/** The top of the login and registration pages: language switcher and brand. */
export function AuthHeader({ logoSize, withTagline = false }: { logoSize: number; withTagline?: boolean }) {
  const { t } = useI18n();
  return (
    <>
      <div className="auth-topbar">
        <LanguageSwitcher compact />
      </div>
      <div className="auth-brand">
        <LogoMark size={logoSize} />
        <p className="auth-brand-name">{t('web.app.name')}</p>
        {withTagline && <p className="auth-brand-tagline">{t('web.app.tagline')}</p>}
      </div>
    </>
  );
}
