import { Link } from 'react-router';
import { ContentKindList } from '../../../features/content/ContentLists.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { Card, PageHeader } from '../../../shared/ui/components.tsx';

/**
 * /news/OrderDeyail (spec section 2, "learning and information"; the spelling is the spec's): the
 * platform's announcements, newest first — "news in order" (issue 20, ADR 0044). Public. Each
 * opens `/news/detail/{id}`; industry news has its own list, `/industrynews`.
 */
export function NewsOrderDeyailPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-announcements">
      <PageHeader title={t('web.content.announcements.title')} backTo="/news" />
      <Card>
        <div className="home-card-head">
          <p className="muted">{t('web.content.announcements.intro')}</p>
          <Link to="/industrynews" className="home-more" data-testid="announcements-industry">
            {t('web.content.announcements.industryLink')}
          </Link>
        </div>
        <ContentKindList kind="announcement" empty="web.content.announcements.empty" label="web.content.announcements.title" />
      </Card>
    </div>
  );
}
