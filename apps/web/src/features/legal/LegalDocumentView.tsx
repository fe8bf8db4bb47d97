import { Link } from 'react-router';
import { useLoggedIn } from '../../shared/api/session.ts';
import { formatDate } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../shared/ui/components.tsx';
import type { LegalDocument } from './documents.ts';

/** A legal document: translated title and headings, English body, and a notice saying so. */
export function LegalDocumentView({ document }: { document: LegalDocument }) {
  const { t, locale } = useI18n();
  const loggedIn = useLoggedIn();
  return (
    <div className="page page-narrow legal">
      <PageHeader title={t(document.title)} backTo={loggedIn ? '/my' : '/login'} />
      <article className="legal-document" lang="en" dir="ltr">
        <p className="legal-meta" lang={locale} dir="auto">
          <span className="badge">{t('web.legal.badge')}</span>
          <span>{t('web.legal.updated', { date: formatDate(`${document.version}T12:00:00`) })}</span>
        </p>
        {locale !== 'en' && (
          <p className="legal-english-only" lang={locale} dir="auto" data-testid="legal-english-notice">
            {t('web.legal.englishOnly')}
          </p>
        )}
        {document.sections.map((section, index) => (
          <section key={section.heading}>
            <h2 lang={locale} dir="auto">
              {index + 1}. {t(section.heading)}
            </h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph.slice(0, 40)}>{paragraph}</p>
            ))}
            {section.link && (
              <p>
                <Link to={section.link.to} data-testid={`legal-link-${section.link.to.slice(1)}`}>
                  {section.link.text}
                </Link>
              </p>
            )}
          </section>
        ))}
      </article>
    </div>
  );
}
