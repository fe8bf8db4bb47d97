import { LoanAgreementView } from '../../../features/loans/LoanAgreement.tsx';
import { LoanApplyView } from '../../../features/loans/LoanApply.tsx';
import { LoanListView } from '../../../features/loans/LoanList.tsx';
import { LoanOverviewView } from '../../../features/loans/LoanOverview.tsx';
import { LoanRepayView } from '../../../features/loans/LoanRepay.tsx';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';

/** /person/Loan: products, the user's credit and how it is computed, the lending treasury, the prices (issue 18). */
export function LoanPage() {
  const { t } = useI18n();
  return (
    <div className="page loans-page" data-testid="loan-page-overview">
      <PageHeader title={t('web.loans.title.overview')} backTo="/my" />
      <LoanOverviewView />
    </div>
  );
}

/** /person/Apply: the application form; the choices travel in the address. */
export function LoanApplyPage() {
  const { t } = useI18n();
  return (
    <div className="page loans-page" data-testid="loan-page-apply">
      <PageHeader title={t('web.loans.title.apply')} backTo="/person/Loan" />
      <LoanApplyView />
    </div>
  );
}

/** /person/loanagreement: the agreement for the numbers chosen, accepted, then the application. */
export function LoanAgreementPage() {
  const { t } = useI18n();
  return (
    <div className="page loans-page" data-testid="loan-page-agreement">
      <PageHeader title={t('web.loans.title.agreement')} backTo="/person/Apply" />
      <LoanAgreementView />
    </div>
  );
}

/** /person/loanList: the user's loans, open and closed. */
export function LoanListPage() {
  const { t } = useI18n();
  return (
    <div className="page loans-page" data-testid="loan-page-list">
      <PageHeader title={t('web.loans.title.list')} backTo="/person/Loan" />
      <LoanListView />
    </div>
  );
}

/** /person/loanBack: repay a passed loan. */
export function LoanRepayPage() {
  const { t } = useI18n();
  return (
    <div className="page loans-page" data-testid="loan-page-repay">
      <PageHeader title={t('web.loans.title.repay')} backTo="/person/loanList" />
      <LoanRepayView />
    </div>
  );
}
