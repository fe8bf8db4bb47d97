import { useState } from 'react';
import { Link } from 'react-router';
import { saveSiteChoice } from '../../app/desktop-paths.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import './desktop-offer.css';

/**
 * The offer a wide screen gets on a mobile page that has a desktop page (ADR 0048): a strip above
 * the page that covers nothing. Either answer is remembered on the device: the desktop site from
 * then on, or the mobile site without the offer.
 */
export function DesktopOffer({ to }: { to: string }) {
  const { t } = useI18n();
  const [kept, setKept] = useState(false);
  if (kept) return null;
  return (
    <aside className="desktop-offer" aria-label={t('web.desktop.offer.label')} data-testid="desktop-offer">
      <span>{t('web.desktop.offer.text')}</span>
      <Link to={to} className="btn btn-primary btn-small" onClick={() => saveSiteChoice('desktop')} data-testid="desktop-offer-open">
        {t('web.desktop.offer.open')}
      </Link>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        onClick={() => {
          saveSiteChoice('mobile');
          setKept(true);
        }}
        data-testid="desktop-offer-stay"
      >
        {t('web.desktop.offer.stay')}
      </button>
    </aside>
  );
}
