import { serviceUrlContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { isOpenableServiceUrl } from './fab-logic.ts';

/** The service URL is configuration: one answer serves every click for a while. */
const SERVICE_URL_STALE_MS = 10 * 60_000;

/**
 * Asks the server for the customer-service URL (a public call, no token needed) and sends the
 * browser there (spec section 7). The answer is cached as a query; a click only fetches it.
 */
export function useOpenService() {
  const { t, tServer, locale } = useI18n();
  const toast = useToast();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  const open = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      // The team that answers in the user's language, where the operator set one (issue 20).
      const input = { query: { lang: locale } };
      const url = await client.fetchQuery({
        queryKey: contractKey(serviceUrlContract, input),
        queryFn: () => api(serviceUrlContract, input),
        staleTime: SERVICE_URL_STALE_MS,
      });
      if (!isOpenableServiceUrl(url)) {
        toast(t('web.service.failed'));
        return;
      }
      window.location.assign(url);
    } catch (error) {
      if (!isSessionError(error)) toast(error instanceof Error ? tServer(error.message) : t('web.service.failed'));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }, [client, locale, t, tServer, toast]);

  return { open, busy };
}
