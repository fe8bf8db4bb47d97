import { useContext } from 'react';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { LanguageSwitcher } from '../../shared/i18n/LanguageSwitcher.tsx';
import { InDesktopFrame } from '../../shared/ui/components.tsx';
import { LogoMark } from '../../shared/ui/icons.tsx';

/** The top of the login and registration pages: language switcher (the desktop frame's header has its own) and brand. */
export function AuthHeader({ logoSize, withTagline = false }: { logoSize: number; withTagline?: boolean }) {
  const { t } = useI18n();
  const desktop = useContext(InDesktopFrame);
  return (
    <>
      {!desktop && (
        <div className="auth-topbar">
          <LanguageSwitcher compact />
        </div>
      )}
      <div className="auth-brand">
        <LogoMark size={logoSize} />
        <p className="auth-brand-name">{t('web.app.name')}</p>
        {withTagline && <p className="auth-brand-tagline">{t('web.app.tagline')}</p>}
      </div>
    </>
  );
}
