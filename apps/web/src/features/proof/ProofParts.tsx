import type { LiabilitySnapshot } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import type { ReactNode } from 'react';
import { formatDecimal } from '../../shared/format/decimal.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import './proof.css';

export const kindKeys: Record<LiabilitySnapshot['kind'], MessageKey> = {
  scheduled: 'web.proof.kind.scheduled',
  requested: 'web.proof.kind.requested',
};

/** A published snapshot: the list and the proof pages show only these (the API lists no other). */
export type PublishedLiabilitySnapshot = LiabilitySnapshot & { published: NonNullable<LiabilitySnapshot['published']> };

export function isPublished(snapshot: LiabilitySnapshot): snapshot is PublishedLiabilitySnapshot {
  return snapshot.published !== null;
}

/** Times and durations in the user's language, isolated left to right. */
export function useProofText() {
  const { locale } = useI18n();
  return {
    time: (iso: string) => `\u2066${formatDateTime(iso)}\u2069`,
    /** Milliseconds with one decimal (performance.now() is finer than that, a person needs no more). */
    ms: (ms: number) => `\u2066${formatDecimal(ms.toFixed(1), locale, { minFractionDigits: 1, maxFractionDigits: 1 })}\u2069`,
  };
}

/** A fact of a definition list: `testId` on the value, with the raw value in `data-value`. */
export function ProofFact({ label, children, testId, value }: { label: string; children: ReactNode; testId?: string; value?: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId} data-value={value}>
        {children}
      </dd>
    </div>
  );
}

/**
 * A hash: always left to right (Arabic pages too), selected whole by one click. `short` draws it on
 * one line cut with an ellipsis; the text is still the whole hash, so selecting or copying it, or a
 * screen reader, gets all 64 digits.
 */
export function Hash({ value, short = false, testId, id }: { value: string; short?: boolean; testId?: string; id?: string }) {
  return (
    <code className={short ? 'proof-hash proof-hash-short' : 'proof-hash'} dir="ltr" translate="no" title={short ? value : undefined} data-testid={testId} data-value={value} id={id}>
      {value}
    </code>
  );
}

const canCopy = () => typeof navigator !== 'undefined' && typeof navigator.clipboard?.writeText === 'function';

/** Copies a hash to the clipboard; without a clipboard (an insecure page) the hash stays there to select by hand. */
export function CopyButton({ text, testId, describedBy }: { text: string; testId?: string; describedBy?: string }) {
  const { t } = useI18n();
  const toast = useToast();
  if (!canCopy()) return null;
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast(t('web.proof.copied'));
    } catch {
      // Permission refused: the hash stays on screen to select.
    }
  }
  return (
    <Button variant="ghost" className="btn-small" onClick={() => void copy()} data-testid={testId} aria-describedby={describedBy}>
      {t('web.proof.copy')}
    </Button>
  );
}

/** Amounts of a snapshot, one per asset, with the asset's committed scale. */
export function AssetAmounts({
  amounts,
  testIdPrefix,
  label,
}: {
  amounts: readonly { asset: string; scale: number; amount: string }[];
  testIdPrefix: string;
  label: string;
}) {
  return (
    <dl className="facts proof-amounts" aria-label={label}>
      {amounts.map((each) => (
        <div key={each.asset}>
          <dt>
            <bdi dir="ltr" translate="no">
              {each.asset}
            </bdi>
          </dt>
          <dd data-testid={`${testIdPrefix}-${each.asset}`} data-value={each.amount}>
            <Amount value={each.amount} unit={each.asset} min={Math.min(2, each.scale)} max={each.scale} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A snapshot's totals per asset, with the scale each asset is committed with. */
export function snapshotTotals(snapshot: PublishedLiabilitySnapshot) {
  return snapshot.published.assets.map((asset) => ({
    asset: asset.code,
    scale: asset.scale,
    amount: snapshot.totals.find((total) => total.asset === asset.code)?.amount ?? '0',
  }));
}
