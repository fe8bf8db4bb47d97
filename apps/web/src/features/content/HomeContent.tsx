import type { ContentSummary } from '@keel/contracts';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { LoadFailedNotice } from '../../shared/ui/components.tsx';
import { ChevronIcon } from '../../shared/ui/icons.tsx';
import { isolated } from './ContentParts.tsx';
import { bannerTarget, contentPath, publishedDate } from './content-logic.ts';
import { useContentHome } from './useContent.ts';

// Home's content (issue 20): the live banners and the latest announcements, from one public read
// (GET /home/content/home). Texts of the tabs' part only (`web.home.*`).

function BannerInner({ banner }: { banner: ContentSummary }) {
  return (
    <span className="home-banner-text" lang={banner.language} dir={banner.fallback ? 'ltr' : undefined}>
      <span className="home-banner-title" data-testid="home-banner-title">
        {banner.title}
      </span>
      {banner.summary && (
        <span className="home-banner-summary" data-testid="home-banner-summary">
          {banner.summary}
        </span>
      )}
    </span>
  );
}

/** The live banners in their order, a strip that scrolls sideways; each opens its page. Nothing when there are none. */
function HomeBanners({ banners }: { banners: readonly ContentSummary[] }) {
  const { t } = useI18n();
  if (banners.length === 0) return null;
  return (
    <ul className="home-banners" aria-label={t('web.home.banners')} data-testid="home-banners">
      {banners.map((banner) => {
        const to = bannerTarget(banner.linkPath);
        return (
          <li key={banner.id} className="home-banner-item">
            {to ? (
              <Link to={to} className="home-banner" data-testid={`home-banner-${banner.id}`}>
                <BannerInner banner={banner} />
                <ChevronIcon />
              </Link>
            ) : (
              <div className="home-banner" data-testid={`home-banner-${banner.id}`}>
                <BannerInner banner={banner} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The three latest announcements, each opening its page, and the way to all of them. */
function HomeAnnouncements({ announcements }: { announcements: readonly ContentSummary[] | null; }) {
  const { t } = useI18n();
  return (
    <>
      {announcements === null ? (
        // The place of the three rows, kept while they load, so the cards below do not move when they arrive.
        <ul className="content-rows" aria-busy="true" data-testid="home-announcements-loading">
          <li className="content-row content-row-placeholder">
            <span className="muted">{t('web.common.loading')}</span>
          </li>
          <li className="content-row content-row-placeholder" aria-hidden="true" />
          <li className="content-row content-row-placeholder" aria-hidden="true" />
        </ul>
      ) : announcements.length === 0 ? (
        <p className="muted" data-testid="home-announcements-empty">
          {t('web.home.noAnnouncements')}
        </p>
      ) : (
        <ul className="content-rows" data-testid="home-announcements">
          {announcements.map((item) => (
            <li key={item.id}>
              <Link to={contentPath(item) ?? '/news/OrderDeyail'} className="content-row" data-testid={`home-announcement-${item.id}`}>
                <span className="content-row-text" lang={item.language} dir={item.fallback ? 'ltr' : undefined}>
                  <span className="content-row-title" data-testid="home-announcement-title">
                    {item.title}
                  </span>
                  <span className="content-row-meta muted">{isolated(publishedDate(item.publishedAtMs))}</span>
                </span>
                <ChevronIcon />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Home's banners (above) and the announcements card. */
export function HomeContent({ part }: { part: 'banners' | 'announcements' }) {
  const { t } = useI18n();
  const { home, failed, reload } = useContentHome();
  // While the read is on its way the banners' strip keeps its place (a deployment without banners
  // gives it back once the answer says so): the cards below do not jump when banners arrive.
  if (part === 'banners') return home ? <HomeBanners banners={home.banners} /> : failed ? null : <div className="home-banners-placeholder" aria-hidden="true" />;
  return (
    <section className="card" aria-labelledby="home-news-title" data-testid="home-news">
      <div className="home-card-head">
        <h2 className="card-title" id="home-news-title">
          {t('web.home.announcements')}
        </h2>
        <Link to="/news/OrderDeyail" className="home-more" data-testid="home-all-news">
          {t('web.home.allNews')}
        </Link>
      </div>
      {failed && <LoadFailedNotice onRetry={reload} />}
      {!failed && <HomeAnnouncements announcements={home?.announcements ?? null} />}
    </section>
  );
}
