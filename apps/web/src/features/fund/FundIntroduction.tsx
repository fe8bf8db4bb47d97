import type { MessageKey } from '@keel/locales';
import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { type FundPolicy, percentToPpm } from './fund-figures.ts';
import { FundSwitch, useFundText } from './FundParts.tsx';
import { type FundOverviewData, useFundOverview } from './useFund.ts';

/** The introduction's topics, each a page of its own at /fund/introduction/detail/{id}. */
export const fundTopics = ['how-it-works', 'risks', 'ratings', 'fees'] as const;
export type FundTopic = (typeof fundTopics)[number];

export function isFundTopic(id: string): id is FundTopic {
  return (fundTopics as readonly string[]).includes(id);
}

const topicTitles: Record<FundTopic, MessageKey> = {
  'how-it-works': 'web.fund.topic.howItWorks.title',
  risks: 'web.fund.topic.risks.title',
  ratings: 'web.fund.topic.ratings.title',
  fees: 'web.fund.topic.fees.title',
};

const topicSummaries: Record<FundTopic, MessageKey> = {
  'how-it-works': 'web.fund.topic.howItWorks.summary',
  risks: 'web.fund.topic.risks.summary',
  ratings: 'web.fund.topic.ratings.summary',
  fees: 'web.fund.topic.fees.summary',
};

export function topicTitle(id: FundTopic): MessageKey {
  return topicTitles[id];
}

/** The escrow account and its ledger balance, from the overview. */
function EscrowText({ data }: { data: FundOverviewData }) {
  const { t } = useI18n();
  const text = useFundText();
  return (
    <p data-testid="fund-escrow" data-balance={data.escrow.balance} data-account-id={data.escrow.accountId ?? ''}>
      {data.escrow.accountId === null
        ? t('web.fund.escrow.none')
        : t('web.fund.escrow.text', { account: data.escrow.accountId, balance: text.amount(data.escrow.balance, 'USDT') })}
    </p>
  );
}

/** The published rating bands as two tables. */
function RatingBands({ policy }: { policy: FundPolicy }) {
  const { t } = useI18n();
  const text = useFundText();
  const credit = [...policy.creditRatingBands].sort((a, b) => b.minScore - a.minScore);
  const investment = [...policy.investmentRatingBands].sort((a, b) => (percentToPpm(b.minCoverPercent) ?? 0) - (percentToPpm(a.minCoverPercent) ?? 0));
  return (
    <>
      <table className="fund-table" data-testid="fund-credit-bands">
        <caption className="earn-subtitle">{t('web.fund.rating.creditBands')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('web.fund.rating.rating')}</th>
            <th scope="col">{t('web.fund.rating.creditScore')}</th>
          </tr>
        </thead>
        <tbody>
          {credit.map((band) => (
            <tr key={band.rating} data-testid={`fund-credit-band-${band.rating}`} data-min={String(band.minScore)}>
              <th scope="row">{band.rating}</th>
              <td>{t('web.fund.rating.scoreFrom', { score: band.minScore })}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="fund-table" data-testid="fund-investment-bands">
        <caption className="earn-subtitle">{t('web.fund.rating.investmentBands')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('web.fund.rating.rating')}</th>
            <th scope="col">{t('web.fund.rating.cover')}</th>
          </tr>
        </thead>
        <tbody>
          {investment.map((band) => (
            <tr key={band.rating} data-testid={`fund-investment-band-${band.rating}`} data-min={band.minCoverPercent}>
              <th scope="row">{band.rating}</th>
              <td>{t('web.fund.rating.coverFrom', { cover: text.percent(band.minCoverPercent) })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The published limits and LTVs in words. */
function Limits({ policy }: { policy: FundPolicy }) {
  const { t } = useI18n();
  const text = useFundText();
  const ltvs = Object.entries(policy.collateralLtvPercent)
    .map(([asset, ltv]) => t('web.fund.collateralTerm', { asset, ltv: text.percent(ltv) }))
    .join(' · ');
  return (
    <ul className="fund-text" data-testid="fund-limits">
      <li>{t('web.fund.rules.amount', { min: text.amount(policy.minAmount, 'USDT'), max: text.amount(policy.maxAmount, 'USDT') })}</li>
      <li>{t('web.fund.rules.rate', { max: text.percent(policy.maxDailyRatePercent) })}</li>
      <li>{t('web.fund.rules.term', { max: policy.maxTermDays, tranches: policy.maxTranches })}</li>
      <li>{t('web.fund.rules.window', { min: policy.minWindowHours, max: policy.maxWindowHours })}</li>
      <li>{t('web.fund.rules.minInvestment', { min: text.amount(policy.minInvestment, 'USDT') })}</li>
      <li>{t('web.fund.rules.ltv', { ltvs })}</li>
    </ul>
  );
}

/** /fund/introduction: the product, its risks and rules in words, each topic with its longer page. */
export function FundIntroductionView() {
  const { t } = useI18n();
  const overview = useFundOverview();
  return (
    <>
      <FundSwitch current="introduction" />
      <div className="fund-text">
        <p>{t('web.fund.intro.lead')}</p>
      </div>
      <ul className="fund-topics" data-testid="fund-topics">
        {fundTopics.map((id) => (
          <li key={id}>
            <Card className="fund-card">
              <article data-testid={`fund-topic-${id}`} aria-labelledby={`fund-topic-title-${id}`}>
                <h2 className="card-title" id={`fund-topic-title-${id}`}>
                  {t(topicTitles[id])}
                </h2>
                <p>{t(topicSummaries[id])}</p>
                <Link to={`/fund/introduction/detail/${id}`} data-testid={`fund-topic-${id}-link`}>
                  {t('web.fund.intro.more', { topic: t(topicTitles[id]) })}
                </Link>
              </article>
            </Card>
          </li>
        ))}
      </ul>
      <Card className="fund-card">
        <h2 className="card-title">{t('web.fund.intro.rulesTitle')}</h2>
        {overview.failed && !overview.data && <LoadFailedNotice onRetry={overview.reload} />}
        {overview.data && (
          <>
            <Limits policy={overview.data.policy} />
            <RatingBands policy={overview.data.policy} />
            <EscrowText data={overview.data} />
          </>
        )}
      </Card>
    </>
  );
}

const topicParagraphs: Record<FundTopic, readonly MessageKey[]> = {
  'how-it-works': [
    'web.fund.topic.howItWorks.p1',
    'web.fund.topic.howItWorks.p2',
    'web.fund.topic.howItWorks.p3',
    'web.fund.topic.howItWorks.p4',
    'web.fund.topic.howItWorks.p5',
    'web.fund.topic.howItWorks.p6',
  ],
  risks: ['web.fund.topic.risks.p1', 'web.fund.topic.risks.p2', 'web.fund.topic.risks.p3', 'web.fund.topic.risks.p4'],
  ratings: ['web.fund.topic.ratings.p1', 'web.fund.topic.ratings.p2', 'web.fund.topic.ratings.p3'],
  fees: ['web.fund.topic.fees.p1', 'web.fund.topic.fees.p2'],
};

/** /fund/introduction/detail/{id}: one topic at length, with the published figures it names. */
export function FundTopicView({ topic }: { topic: FundTopic }) {
  const { t } = useI18n();
  const overview = useFundOverview();
  const data = overview.data;
  return (
    <>
      <FundSwitch current="introduction" />
      <Card className="fund-card">
        <article className="fund-text" data-testid={`fund-topic-detail-${topic}`}>
          {topicParagraphs[topic].map((key) => (
            <p key={key}>{t(key)}</p>
          ))}
          {overview.failed && !data && <LoadFailedNotice onRetry={overview.reload} />}
          {data && topic === 'how-it-works' && (
            <>
              <Limits policy={data.policy} />
              <EscrowText data={data} />
            </>
          )}
          {data && topic === 'ratings' && <RatingBands policy={data.policy} />}
          {data && topic === 'risks' && <EscrowText data={data} />}
        </article>
      </Card>
      <nav className="fund-links" aria-label={t('web.fund.intro.otherTopics')}>
        {fundTopics
          .filter((id) => id !== topic)
          .map((id) => (
            <Link key={id} to={`/fund/introduction/detail/${id}`} className="btn btn-secondary" data-testid={`fund-topic-${id}-link`}>
              {t(topicTitles[id])}
            </Link>
          ))}
      </nav>
    </>
  );
}
