import { ApiError } from '@keel/contracts';
import { useState } from 'react';
import { isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button } from '../../shared/ui/components.tsx';
import { resendWaitMs, retryAfterSeconds } from './contact-validation.ts';
import { useCountdown } from './useCountdown.ts';

export interface SendCodeProps {
  /** Checks the address first; false stops the send (the form shows why). */
  beforeSend: () => boolean;
  send: () => Promise<{ expiresAtMs: number; resendAfterMs: number }>;
  /** Reports the outcome as text for the form: a notice after sending, or the server's refusal. */
  onResult: (outcome: { sent: true } | { sent: false; message: string }) => void;
  testId?: string;
}

/**
 * "Send code" with the 60 s wait the server sets (`resendAfterMs`), counted down on the button. A
 * 429 answer starts the wait the server names (`retryAfterSeconds`).
 */
export function SendCodeButton({ beforeSend, send, onResult, testId = 'send-code' }: SendCodeProps) {
  const { t, tServer } = useI18n();
  const { seconds, start } = useCountdown();
  const [busy, setBusy] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);

  async function click() {
    if (!beforeSend()) return;
    setBusy(true);
    try {
      const answer = await send();
      start(resendWaitMs(answer));
      setSentOnce(true);
      onResult({ sent: true });
    } catch (error) {
      if (isSessionError(error)) return;
      if (error instanceof ApiError) {
        const wait = error.code === 429 ? retryAfterSeconds(error.data) : undefined;
        if (wait) start(wait * 1000);
        onResult({
          sent: false,
          message: wait ? t('web.auth.tryAgainIn', { seconds: wait }) : tServer(error.message),
        });
      } else {
        onResult({ sent: false, message: t('web.common.loadFailed') });
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="secondary" className="send-code" busy={busy} disabled={seconds > 0} onClick={() => void click()} data-testid={testId}>
      {seconds > 0 ? t('web.auth.resendIn', { seconds }) : sentOnce ? t('web.auth.resendCode') : t('web.auth.sendCode')}
    </Button>
  );
}
