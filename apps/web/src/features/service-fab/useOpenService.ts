import { serviceUrlContract } from '@keel/contracts';
import { useCallback, useRef, useState } from 'react';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { isOpenableServiceUrl } from './fab-logic.ts';

/** Asks the server for the customer-service URL and sends the browser there (spec section 7). */
export function useOpenService() {
  const { t, tServer } = useI18n();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  const open = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const url = await api(serviceUrlContract);
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
  }, [t, tServer, toast]);

  return { open, busy };
}
