import { type LocaleCode, localeNames, rtlLocales } from '@keel/contracts';
import { ContentMarkdown } from '@keel/ui';
import { useI18n } from '../../shared/i18n.tsx';

/**
 * The words of one language "as a phone shows it": a frame 390 px wide (the user app's phone
 * width) with the title, the summary and the Markdown body drawn by `ContentMarkdown`, the
 * renderer the user app reads content with, right to left for Arabic. In-app links are drawn as
 * underlined text (the preview goes nowhere); images come from Keel's content images as for a
 * reader. It shows what is typed, saved or not.
 */
export function PhonePreview({ language, title, summary, body }: { language: LocaleCode; title: string; summary: string; body: string }) {
  const { t } = useI18n();
  const dir = rtlLocales.has(language) ? 'rtl' : 'ltr';
  const label = t('admin.content.preview.label', { language: localeNames[language] });
  return (
    <section className="phone-preview" aria-label={label} data-testid="content-preview">
      <h4>{t('admin.content.preview.title')}</h4>
      <p className="muted hint">{t('admin.content.preview.hint')}</p>
      <div className="phone-frame" data-testid="phone-frame">
        <article lang={language} dir={dir} data-testid="phone-article">
          {title.trim() === '' ? (
            <p className="phone-empty">{t('admin.content.preview.noTitle')}</p>
          ) : (
            <h5 className="phone-title" data-testid="phone-title">
              {title}
            </h5>
          )}
          {summary.trim() !== '' && (
            <p className="phone-summary" data-testid="phone-summary">
              {summary}
            </p>
          )}
          {body.trim() === '' ? (
            <p className="phone-empty">{t('admin.content.preview.noBody')}</p>
          ) : (
            <ContentMarkdown
              markdown={body}
              externalLinkLabel={t('admin.content.preview.external')}
              renderInternalLink={(path, children) => (
                <span className="internal-link" title={path}>
                  {children}
                </span>
              )}
            />
          )}
        </article>
      </div>
    </section>
  );
}
