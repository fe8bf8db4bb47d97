import { siteAddress } from '@keel/contracts';
import { DemoBanner } from '@keel/ui';
import { useEffect, useState } from 'react';
import { useContractQuery } from '../shared/api/queries.ts';
import { useI18n } from '../shared/i18n/I18nProvider.tsx';

/** The deployment's facts change only with a restart: one answer serves a long while. */
const SITE_STALE_MS = 10 * 60_000;

/**
 * "Demo: not real money" at the top of every page on a demo deployment (ADR 0041), public pages
 * too. The read is public and started by the first script (pages.ts `everyScreenReads`), so on a
 * demo the banner is there with the first screen; a failed read shows nothing.
 */
/** The deployment's facts: one cached read shared by the banner and the frame's wait. */
const useSite = () => useContractQuery(siteAddress, undefined, { staleTime: SITE_STALE_MS });

export function SiteDemoBanner() {
  const { t } = useI18n();
  const site = useSite();
  return <DemoBanner demo={site.data?.demo === true} text={t('web.app.demoBanner')} />;
}

/** The longest the page waits for the deployment's facts before it shows anyway (a slow or failed read). */
export const SITE_READ_WAIT_MS = 1_500;

/**
 * Whether the page may be shown: once the deployment's facts are known (or failed, or took longer
 * than SITE_READ_WAIT_MS). Until then RootLayout keeps the frame invisible, so a demo's banner,
 * which sits above it in the flow, never pushes a painted page down (on the desktop site's tall
 * frame that shift alone cost Lighthouse's layout-shift score 0.25).
 */
export function useSiteReadSettled(): boolean {
  const site = useSite();
  const [waitedOut, setWaitedOut] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaitedOut(true), SITE_READ_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  return !site.isPending || waitedOut;
}
