import type { MessageKey } from '@keel/locales';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { loginPathFor } from '../../shared/api/redirect.ts';
import { useLoggedIn } from '../../shared/api/session.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Card, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import {
  AssetAmounts,
  CopyButton,
  Hash,
  isPublished,
  kindKeys,
  ProofFact,
  type PublishedLiabilitySnapshot,
  snapshotTotals,
  useProofText,
} from './ProofParts.tsx';
import { useMyProof, useSnapshot } from './useProof.ts';
import { type ProofCheck, type ProofCheckProblem, proofFileName, verifyCommand, verifyProofFile, verifyStateOf } from './verify-proof.ts';

const problemKeys: Record<ProofCheckProblem, MessageKey> = {
  malformed: 'web.proof.problem.malformed',
  snapshot_mismatch: 'web.proof.problem.snapshot_mismatch',
  asset_mismatch: 'web.proof.problem.asset_mismatch',
  bad_index: 'web.proof.problem.bad_index',
  bad_path_length: 'web.proof.problem.bad_path_length',
  negative_sum: 'web.proof.problem.negative_sum',
  sum_overflow: 'web.proof.problem.sum_overflow',
  bad_padding: 'web.proof.problem.bad_padding',
  root_mismatch: 'web.proof.problem.root_mismatch',
  sum_mismatch: 'web.proof.problem.sum_mismatch',
  published_mismatch: 'web.proof.problem.published_mismatch',
};

/** The snapshot's published data in full: what every verifier checks a proof against. */
function PublishedFacts({ snapshot }: { snapshot: PublishedLiabilitySnapshot }) {
  const { t } = useI18n();
  const text = useProofText();
  const rootId = useId();
  const { published } = snapshot;
  return (
    <Card className="proof-card">
      <article data-testid="proof-published" aria-labelledby={`${rootId}-title`}>
        <div className="proof-head">
          <h2 className="card-title" id={`${rootId}-title`}>
            {t('web.proof.published.title')}
          </h2>
          <span className="badge proof-kind" data-testid="proof-published-kind" data-kind={snapshot.kind}>
            {t(kindKeys[snapshot.kind])}
          </span>
        </div>
        <dl className="facts">
          <ProofFact label={t('web.proof.field.id')} testId="proof-published-id" value={published.snapshotId}>
            <bdi dir="ltr">{published.snapshotId}</bdi>
          </ProofFact>
          <ProofFact label={t('web.proof.field.takenAt')} testId="proof-published-taken-at" value={published.takenAt}>
            {text.time(published.takenAt)}
          </ProofFact>
          <ProofFact label={t('web.proof.field.accounts')} testId="proof-published-leaves" value={String(published.leafCount)}>
            <bdi dir="ltr">{published.leafCount}</bdi>
          </ProofFact>
        </dl>
        <h3 className="proof-subtitle">{t('web.proof.field.totals')}</h3>
        <AssetAmounts amounts={snapshotTotals(snapshot)} testIdPrefix="proof-published-total" label={t('web.proof.field.totals')} />
        <div className="proof-root">
          <span className="muted" id={`${rootId}-root`}>
            {t('web.proof.field.root')}
          </span>
          <Hash value={published.rootHash} testId="proof-published-root" />
          <div>
            <CopyButton text={published.rootHash} testId="proof-published-copy" describedBy={`${rootId}-root`} />
          </div>
        </div>
        <details className="proof-details">
          <summary>{t('web.proof.published.data')}</summary>
          <p className="muted">{t('web.proof.published.dataHint')}</p>
          <pre dir="ltr" translate="no" data-testid="proof-published-json">
            {JSON.stringify(published, null, 2)}
          </pre>
        </details>
      </article>
    </Card>
  );
}

/** An object URL of `text` as a JSON file while the component shows it (released after). */
function useJsonFileUrl(text: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (text === null) {
      setUrl(null);
      return;
    }
    const made = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [text]);
  return url;
}

/** The proof file to keep, and the command that checks it outside the browser. */
function ProofDownload({ snapshotId, file }: { snapshotId: string; file: unknown }) {
  const { t } = useI18n();
  const url = useJsonFileUrl(`${JSON.stringify(file, null, 2)}\n`);
  return (
    <div className="proof-download">
      {url && (
        <a href={url} download={proofFileName(snapshotId)} className="btn btn-secondary btn-block" data-testid="proof-download">
          {t('web.proof.download.link')}
        </a>
      )}
      <p className="muted">{t('web.proof.download.cli')}</p>
      <pre dir="ltr" translate="no" className="proof-command" data-testid="proof-command">
        {verifyCommand(snapshotId)}
      </pre>
    </div>
  );
}

/** The outcome of a check: verified against the published root with the user's balances, or the problem named. */
function CheckResult({ check, snapshotId }: { check: ProofCheck; snapshotId: string }) {
  const { t, tRich } = useI18n();
  const text = useProofText();
  const time = (
    <p className="muted" data-testid="proof-check-ms" data-value={String(check.elapsedMs)}>
      {t('web.proof.verify.time', { ms: text.ms(check.elapsedMs) })}
    </p>
  );
  if (!check.ok) {
    return (
      <div className="proof-result" data-testid="proof-result" data-ok="false" data-problem={check.problem}>
        <Notice tone="error" title={t('web.proof.verify.failedTitle')}>
          <p data-testid="proof-problem">{t(problemKeys[check.problem])}</p>
          {check.at !== null && (
            <p>
              {tRich('web.proof.verify.where', {
                at: (
                  <code dir="ltr" key="at">
                    {check.at}
                  </code>
                ),
              })}
            </p>
          )}
        </Notice>
        {time}
      </div>
    );
  }
  return (
    <div className="proof-result" data-testid="proof-result" data-ok="true">
      <Notice title={t('web.proof.verify.okTitle')}>
        <p data-testid="proof-verified">
          {tRich('web.proof.verify.ok', {
            id: (
              <bdi dir="ltr" key="id">
                {snapshotId}
              </bdi>
            ),
            root: <Hash key="root" value={check.rootHash} testId="proof-verified-root" />,
          })}
        </p>
      </Notice>
      <h3 className="proof-subtitle">{t('web.proof.verify.balances')}</h3>
      <AssetAmounts amounts={check.balances} testIdPrefix="proof-balance" label={t('web.proof.verify.balances')} />
      {time}
    </div>
  );
}

/**
 * "Verify my balance": the user's proof file fetched, checked here with Web Crypto against the
 * snapshot the public list shows, timed (`verifyProofFile`); the result with the user's balances,
 * the file to keep and the command that checks it anywhere. A visitor is asked to log in first
 * (and comes back here); a user who registered after the snapshot is told so.
 */
function VerifyMine({ snapshot }: { snapshot: PublishedLiabilitySnapshot }) {
  const { t } = useI18n();
  const loggedIn = useLoggedIn();
  const [asked, setAsked] = useState(false);
  const [check, setCheck] = useState<ProofCheck | null>(null);
  const mine = useMyProof(snapshot.id, asked && loggedIn);
  const against = snapshot.published;
  const latest = useRef(0);

  const verify = useCallback(
    async (file: unknown) => {
      const run = ++latest.current;
      setCheck(null);
      const result = await verifyProofFile(file, { against });
      if (run === latest.current) setCheck(result);
    },
    [against],
  );

  useEffect(() => {
    if (mine.file !== undefined) void verify(mine.file);
    return () => {
      latest.current += 1;
    };
  }, [mine.file, verify]);

  if (!loggedIn) {
    return (
      <Card className="proof-card">
        <h2 className="card-title">{t('web.proof.verify.title')}</h2>
        <p>{t('web.proof.verify.explain')}</p>
        <Link to={loginPathFor(`/proof/${snapshot.id}`)} className="btn btn-primary btn-block" data-testid="proof-login">
          {t('web.proof.verify.login')}
        </Link>
      </Card>
    );
  }

  const state = verifyStateOf({ asked, file: mine.file, error: mine.error, sessionError: mine.sessionError, check });
  return (
    <Card className="proof-card">
      <section data-testid="proof-verify" data-step={state.step} aria-labelledby="proof-verify-title" aria-busy={state.step === 'fetching' || state.step === 'checking'}>
        <h2 className="card-title" id="proof-verify-title">
          {t('web.proof.verify.title')}
        </h2>
        <p>{t('web.proof.verify.explain')}</p>
        {state.step === 'idle' || state.step === 'fetching' ? (
          <Button block busy={state.step === 'fetching'} onClick={() => setAsked(true)} data-testid="proof-verify-button">
            {state.step === 'fetching' ? t('web.proof.verify.fetching') : t('web.proof.verify.button')}
          </Button>
        ) : null}
        <div aria-live="polite">
          {state.step === 'checking' && <p className="muted">{t('web.proof.verify.checking')}</p>}
          {state.step === 'refused' && state.refusal === 'not_in_snapshot' && (
            <Notice title={t('web.proof.notInSnapshot.title')} testId="proof-not-in-snapshot">
              {t('web.proof.notInSnapshot.text')}
            </Notice>
          )}
          {state.step === 'refused' && state.refusal === 'not_found' && (
            <Notice tone="warning" testId="proof-mine-not-found">
              {t('web.proof.snapshot.notFound')}
            </Notice>
          )}
          {state.step === 'refused' && state.refusal === 'failed' && <LoadFailedNotice onRetry={mine.reload} />}
          {state.step === 'checked' && <CheckResult check={state.check} snapshotId={snapshot.id} />}
        </div>
        {state.step === 'checked' && (
          <>
            <Button variant="secondary" block onClick={() => void verify(mine.file)} data-testid="proof-verify-again">
              {t('web.proof.verify.again')}
            </Button>
            <ProofDownload snapshotId={snapshot.id} file={mine.file} />
          </>
        )}
      </section>
    </Card>
  );
}

/** /proof/{id}: one snapshot's published data in full, and the check of the user's own balance in it. */
export function ProofSnapshotView({ snapshotId }: { snapshotId: string }) {
  const { t } = useI18n();
  const { snapshot, notFound, failed, reload } = useSnapshot(snapshotId);
  if (notFound || (snapshot && !isPublished(snapshot))) {
    return (
      <div className="proof-stack">
        <Notice tone="warning" testId="proof-snapshot-not-found">
          {t('web.proof.snapshot.notFound')}
        </Notice>
        <Link to="/proof" className="btn btn-secondary btn-block">
          {t('web.proof.backToList')}
        </Link>
      </div>
    );
  }
  if (failed && !snapshot) return <LoadFailedNotice onRetry={reload} />;
  if (!snapshot || !isPublished(snapshot)) return <p className="muted">{t('web.common.loading')}</p>;
  return (
    <div className="proof-stack">
      <PublishedFacts snapshot={snapshot} />
      <VerifyMine snapshot={snapshot} />
      <Link to="/proof" className="proof-back-link" data-testid="proof-back-to-list">
        {t('web.proof.backToList')}
      </Link>
    </div>
  );
}
