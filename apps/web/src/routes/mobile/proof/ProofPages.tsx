import { useParams } from 'react-router';
import { ProofIntro, SnapshotList } from '../../../features/proof/ProofOverview.tsx';
import { ProofSnapshotView } from '../../../features/proof/ProofSnapshot.tsx';
import { useLoggedIn } from '../../../shared/api/session.ts';
import { useI18n } from '../../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../../shared/ui/components.tsx';
import { NotFoundPage } from '../error/ErrorPages.tsx';

const ID = /^\d{1,19}$/;

/** /proof: what a proof of liabilities is, and every published snapshot (public, issue 22). */
export function ProofPage() {
  const { t } = useI18n();
  const loggedIn = useLoggedIn();
  return (
    <div className="page proof-page" data-testid="proof-page">
      <PageHeader title={t('web.proof.title')} backTo={loggedIn ? '/my' : '/login'} />
      <ProofIntro />
      <SnapshotList />
    </div>
  );
}

/** /proof/{id}: one snapshot's published data and the check of the user's own balance; an id that is not a number is "not found". */
export function ProofSnapshotPage() {
  const { t } = useI18n();
  const { snapshotId = '' } = useParams();
  if (!ID.test(snapshotId)) return <NotFoundPage />;
  return (
    <div className="page proof-page" data-testid="proof-page-snapshot">
      <PageHeader title={t('web.proof.snapshot.name', { id: snapshotId })} backTo="/proof" />
      <ProofSnapshotView key={snapshotId} snapshotId={snapshotId} />
    </div>
  );
}
