import { useSearchParams } from 'react-router';
import { NewsFeed } from '../../../features/content/NewsFeed.tsx';
import { MarketList } from '../../../features/market/MarketList.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { Segmented } from '../../../shared/ui/components.tsx';

type View = 'markets' | 'news';

/**
 * /news: the market tab: the live market list with the watchlist, and beside it the news (issue 20):
 * the latest announcements and industry news, each opening its page. The choice is in the address
 * (`?view=news`), so "back" from an article returns to the news.
 */
export function NewsPage() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'news' ? 'news' : 'markets';
  return (
    <div className="page">
      <h1 className="page-title">{t('web.tab.market')}</h1>
      <Segmented<View>
        label={t('web.market.view')}
        value={view}
        options={[
          { value: 'markets', label: t('web.market.viewMarkets'), testId: 'market-view-markets' },
          { value: 'news', label: t('web.market.viewNews'), testId: 'market-view-news' },
        ]}
        onChange={(next) => setParams(next === 'news' ? { view: 'news' } : {}, { replace: true })}
      />
      {view === 'news' ? <NewsFeed /> : <MarketList />}
    </div>
  );
}
