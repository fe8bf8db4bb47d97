import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Card, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { Pager } from '../../shared/ui/Pager.tsx';
import { AssetAmounts, CopyButton, Hash, isPublished, kindKeys, ProofFact, type PublishedLiabilitySnapshot, snapshotTotals, useProofText } from './ProofParts.tsx';
import { useSnapshots } from './useProof.ts';

/**
 * What a proof of liabilities is, in plain words (ADR 0040): what Keel publishes, what a user can
 * check without trusting Keel, and what it does not prove or reveals — liabilities, not assets;
 * only those who check are protected; a proof shows one other anonymous account's balances.
 */
export function ProofIntro() {
  const { t } = useI18n();
  return (
    <Card className="proof-card">
      <h2 className="card-title">{t('web.proof.intro.title')}</h2>
      <div className="proof-text" data-testid="proof-intro">
        <p>{t('web.proof.intro.publish')}</p>
        <p>{t('web.proof.intro.check')}</p>
        <p>{t('web.proof.intro.why')}</p>
        <h3>{t('web.proof.intro.limitsTitle')}</h3>
        <ul>
          <li>{t('web.proof.intro.notAssets')}</li>
          <li>{t('web.proof.intro.onlyCheckers')}</li>
          <li>{t('web.proof.intro.reveals')}</li>
        </ul>
      </div>
    </Card>
  );
}

function SnapshotCard({ snapshot }: { snapshot: PublishedLiabilitySnapshot }) {
  const { t } = useI18n();
  const text = useProofText();
  const titleId = `proof-snapshot-title-${snapshot.id}`;
  const rootId = `proof-snapshot-root-${snapshot.id}`;
  return (
    <li>
      <Card className="proof-card">
        <article data-testid={`proof-snapshot-${snapshot.id}`} data-kind={snapshot.kind} aria-labelledby={titleId}>
          <div className="proof-head">
            <h3 className="card-title" id={titleId}>
              {t('web.proof.snapshot.name', { id: snapshot.id })}
            </h3>
            <span className="badge proof-kind">{t(kindKeys[snapshot.kind])}</span>
          </div>
          <dl className="facts">
            <ProofFact label={t('web.proof.field.takenAt')} testId="proof-snapshot-taken-at" value={snapshot.published.takenAt}>
              {text.time(snapshot.published.takenAt)}
            </ProofFact>
            <ProofFact label={t('web.proof.field.accounts')} testId="proof-snapshot-leaves" value={String(snapshot.published.leafCount)}>
              <bdi dir="ltr">{snapshot.published.leafCount}</bdi>
            </ProofFact>
          </dl>
          <h4 className="proof-subtitle">{t('web.proof.field.totals')}</h4>
          <AssetAmounts amounts={snapshotTotals(snapshot)} testIdPrefix="proof-snapshot-total" label={t('web.proof.field.totals')} />
          <div className="proof-root">
            <span className="muted" id={`${rootId}-label`}>
              {t('web.proof.field.root')}
            </span>
            <div className="proof-root-row">
              <Hash value={snapshot.published.rootHash} short testId="proof-snapshot-root" id={rootId} />
              <CopyButton text={snapshot.published.rootHash} testId="proof-snapshot-copy" describedBy={`${rootId}-label`} />
            </div>
          </div>
          <Link to={`/proof/${snapshot.id}`} className="btn btn-secondary btn-block" data-testid="proof-snapshot-open">
            {t('web.proof.list.open', { id: snapshot.id })}
          </Link>
        </article>
      </Card>
    </li>
  );
}

/** The published snapshots, newest first, a page at a time: time, accounts, totals per asset, root hash. */
export function SnapshotList() {
  const { t } = useI18n();
  const list = useSnapshots();
  const items = list.data?.items.filter(isPublished) ?? [];
  return (
    <section className="proof-list" aria-labelledby="proof-list-title">
      <h2 className="proof-section-title" id="proof-list-title">
        {t('web.proof.list.title')}
      </h2>
      {list.failed && <LoadFailedNotice onRetry={list.reload} />}
      {list.data === null ? (
        !list.failed && <p className="muted">{t('web.common.loading')}</p>
      ) : items.length === 0 ? (
        <p className="muted" data-testid="proof-snapshots-empty">
          {t('web.proof.list.empty')}
        </p>
      ) : (
        <ul className="proof-stack" data-testid="proof-snapshots">
          {items.map((snapshot) => (
            <SnapshotCard key={snapshot.id} snapshot={snapshot} />
          ))}
        </ul>
      )}
      {list.data && <Pager page={list.page} total={list.data.total} loading={list.loading} onPage={list.setPage} testIdPrefix="proof-snapshots" />}
    </section>
  );
}
