import { useParams } from 'react-router';
import { FundHubView } from '../../../features/fund/FundHub.tsx';
import { FundIntroductionView, FundTopicView, isFundTopic, topicTitle } from '../../../features/fund/FundIntroduction.tsx';
import { FundInvestmentDetailView, FundInvestmentsView } from '../../../features/fund/FundInvestments.tsx';
import { FundPoolView, FundRequestDetailView } from '../../../features/fund/FundPool.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

const ID = /^\d{1,19}$/;

/** /fund: the fund section's hub, the user's requests and the publish form (issue 18). */
export function FundPage() {
  const { t } = useI18n();
  return (
    <div className="page fund-page" data-testid="fund-page-hub">
      <PageHeader title={t('web.fund.title.hub')} backTo="/index" />
      <FundHubView />
    </div>
  );
}

/** /fund/introduction: the product, its risks and its rules. */
export function FundIntroductionPage() {
  const { t } = useI18n();
  return (
    <div className="page fund-page" data-testid="fund-page-introduction">
      <PageHeader title={t('web.fund.title.introduction')} backTo="/fund" />
      <FundIntroductionView />
    </div>
  );
}

/** /fund/introduction/detail/{id}: one topic at length; an unknown topic is "not found". */
export function FundTopicPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  if (!isFundTopic(id)) return <NotFoundPage />;
  return (
    <div className="page fund-page" data-testid="fund-page-topic">
      <PageHeader title={t(topicTitle(id))} backTo="/fund/introduction" />
      <FundTopicView key={id} topic={id} />
    </div>
  );
}

/** /fund/pool: requests open for investment, or funded. */
export function FundPoolPage() {
  const { t } = useI18n();
  return (
    <div className="page fund-page" data-testid="fund-page-pool">
      <PageHeader title={t('web.fund.title.pool')} backTo="/fund" />
      <FundPoolView />
    </div>
  );
}

/** /fund/pool/detail/{id}: one request and the invest form; an id that is not a number is "not found". */
export function FundRequestPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  if (!ID.test(id)) return <NotFoundPage />;
  return (
    <div className="page fund-page" data-testid="fund-page-request">
      <PageHeader title={t('web.fund.title.request')} backTo="/fund/pool" />
      <FundRequestDetailView key={id} requestId={id} />
    </div>
  );
}

/** /fund/investment: the user's investments. */
export function FundInvestmentsPage() {
  const { t } = useI18n();
  return (
    <div className="page fund-page" data-testid="fund-page-investments">
      <PageHeader title={t('web.fund.title.investments')} backTo="/fund" />
      <FundInvestmentsView />
    </div>
  );
}

/** /fund/investment/detail/{id}: one investment; an id that is not a number is "not found". */
export function FundInvestmentPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  if (!ID.test(id)) return <NotFoundPage />;
  return (
    <div className="page fund-page" data-testid="fund-page-investment">
      <PageHeader title={t('web.fund.title.investment')} backTo="/fund/investment" />
      <FundInvestmentDetailView key={id} investmentId={id} />
    </div>
  );
}
