import { siteAddress } from '@keel/contracts';
import { DemoBanner } from '@keel/ui';
import { useContractQuery } from '../shared/api/queries.ts';
import { useI18n } from '../shared/i18n/I18nProvider.tsx';

/** The deployment's facts change only with a restart: one answer serves a long while. */
const SITE_STALE_MS = 10 * 60_000;

/**
 * "Demo: not real money" at the top of every page on a demo deployment (ADR 0041), public pages
 * too. The read is public and started by the first script (pages.ts `everyScreenReads`), so on a
 * demo the banner is there with the first screen; a failed read shows nothing.
 */
export function SiteDemoBanner() {
  const { t } = useI18n();
  const site = useContractQuery(siteAddress, undefined, { staleTime: SITE_STALE_MS });
  return <DemoBanner demo={site.data?.demo === true} text={t('web.app.demoBanner')} />;
}
