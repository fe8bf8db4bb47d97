import type { ContentArticle } from '@keel/contracts';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { ContentArticleView } from '../../../features/content/ContentArticleView.tsx';
import { AboutView, ContentDetail } from '../../../features/content/ContentDetail.tsx';
import { ContentKindList } from '../../../features/content/ContentLists.tsx';
import { CourseView } from '../../../features/content/CourseView.tsx';
import { HelpCentre } from '../../../features/content/HelpCentre.tsx';
import { CONTENT_ID } from '../../../features/content/content-logic.ts';
import { useLoggedIn } from '../../../shared/api/session.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { Card, PageHeader } from '../../../shared/ui/components.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

// The content pages of spec section 2 (issue 20), public: a visitor reads them without a session.
// One chunk (`pages.content`); their route group loads the texts of every part (router.tsx).

export { NewsOrderDeyailPage } from '../news/NewsOrderDeyailPage.tsx';

/** Where "back" goes from a list page when the page was opened directly: home with a session, else the login. */
function useHome() {
  return useLoggedIn() ? '/index' : '/login';
}

/** /helpcenter: search, categories with counts, a category's articles, "contact us". */
export function HelpCentrePage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-helpcenter">
      <PageHeader title={t('web.content.help.title')} backTo={useHome()} />
      <HelpCentre />
    </div>
  );
}

/** A detail page: the id checked (digits, as the API's ids), then the item of one of `kinds`. */
function DetailPage({
  title,
  backTo,
  kinds,
  testId,
  render,
}: {
  title: string;
  backTo: string;
  kinds: readonly ContentArticle['kind'][];
  testId: string;
  render?: (article: ContentArticle) => ReactNode;
}) {
  const { id = '' } = useParams();
  if (!CONTENT_ID.test(id)) return <NotFoundPage />;
  return (
    <div className="page" data-testid={testId}>
      <PageHeader title={title} backTo={backTo} />
      <ContentDetail key={id} itemId={id} kinds={kinds} render={render} />
    </div>
  );
}

/** /helpcenterdetail/{id}: one help article. */
export function HelpArticlePage() {
  const { t } = useI18n();
  return <DetailPage title={t('web.content.help.title')} backTo="/helpcenter" kinds={['help']} testId="page-helpcenterdetail" />;
}

/** /course: the courses, in their order. */
export function CoursesPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-course">
      <PageHeader title={t('web.content.course.title')} backTo={useHome()} />
      <Card>
        <ContentKindList kind="course" empty="web.content.course.empty" label="web.content.course.title" />
      </Card>
    </div>
  );
}

/** /course/detail/{id}: a course with its lessons in order, or a lesson with its neighbours and the way back to its course. */
export function CourseDetailPage() {
  const { t } = useI18n();
  return (
    <DetailPage
      title={t('web.content.course.title')}
      backTo="/course"
      kinds={['course', 'lesson']}
      testId="page-course-detail"
      render={(article) => <CourseView article={article} />}
    />
  );
}

/** /aboutus: who runs Keel. */
export function AboutUsPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-aboutus">
      <PageHeader title={t('web.content.about.title')} backTo={useHome()} />
      <AboutView />
    </div>
  );
}

/** /industrynews: industry news, newest first, each labelled "sample content" when it is. */
export function IndustryNewsPage() {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="page-industrynews">
      <PageHeader title={t('web.content.industry.title')} backTo="/news" />
      <Card>
        <ContentKindList kind="industry_news" empty="web.content.industry.empty" label="web.content.industry.title" />
      </Card>
    </div>
  );
}

/** /industrynewdetail/{id}: one industry news item, with the markets it is about. */
export function IndustryNewsDetailPage() {
  const { t } = useI18n();
  return <DetailPage title={t('web.content.industry.title')} backTo="/industrynews" kinds={['industry_news']} testId="page-industrynewdetail" />;
}

/** /news/detail/{id}: one platform announcement. */
export function AnnouncementPage() {
  const { t } = useI18n();
  return (
    <DetailPage
      title={t('web.content.announcement.title')}
      backTo="/news/OrderDeyail"
      kinds={['announcement']}
      testId="page-news-detail"
      render={(article) => <ContentArticleView article={article} />}
    />
  );
}
