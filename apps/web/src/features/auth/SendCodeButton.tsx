import { ApiError } from '@keel/contracts';
import { useState } from 'react';
import { isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button } from '../../shared/ui/components.tsx';
import { resendWaitMs, retryAfterSeconds } from './code-wait.ts';
import { useCountdown } from './useCountdown.ts';

/** How a send ended: sent, refused (the form puts the error where it belongs), or asked to wait. */
export type SendOutcome = { sent: true } | { sent: false; error: unknown } | { sent: false; waitSeconds: number };

export interface SendCodeProps {
  /** Checks the address first; false stops the send (the form shows why). */
  beforeSend: () => boolean | Promise<boolean>;
  send: () => Promise<{ expiresAtMs: number; resendAfterMs: number }>;
  onResult: (outcome: SendOutcome) => void;
  testId?: string;
}

/**
 * "Send code" with the 60 s wait the server sets (`resendAfterMs`), counted down on the button. A
 * 429 answer starts the wait the server names (`retryAfterSeconds`).
 */
export function SendCodeButton({ beforeSend, send, onResult, testId = 'send-code' }: SendCodeProps) {
  const { t } = useI18n();
  const { seconds, start } = useCountdown();
  const [busy, setBusy] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);

  async function click() {
    setBusy(true);
    try {
      if (!(await beforeSend())) return;
      const answer = await send();
      start(resendWaitMs(answer));
      setSentOnce(true);
      onResult({ sent: true });
    } catch (error) {
      if (isSessionError(error)) return;
      const wait = error instanceof ApiError && error.code === 429 ? retryAfterSeconds(error.data) : undefined;
      if (wait) {
        start(wait * 1000);
        onResult({ sent: false, waitSeconds: wait });
      } else {
        onResult({ sent: false, error });
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
