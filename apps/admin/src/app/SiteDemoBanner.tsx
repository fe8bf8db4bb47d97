import { siteContract } from '@keel/contracts';
import { DemoBanner } from '@keel/ui';
import { useI18n } from '../shared/i18n.tsx';
import { useContractQuery } from '../shared/queries.ts';

/** The deployment's facts change only with a restart: one answer serves a long while. */
const SITE_STALE_MS = 10 * 60_000;

/**
 * "Demo: not real money" above every back-office page on a demo deployment (ADR 0041), the login
 * form and the first-login steps too: staff must never take a demo's users or money for real ones.
 * A public read; a failed one shows nothing.
 */
export function SiteDemoBanner() {
  const { t } = useI18n();
  const site = useContractQuery(siteContract, undefined, { staleTime: SITE_STALE_MS });
  return <DemoBanner demo={site.data?.demo === true} text={t('admin.demoBanner')} />;
}
