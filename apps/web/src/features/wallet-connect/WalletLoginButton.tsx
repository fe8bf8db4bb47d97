import { ApiError, errorCatalogue, walletLoginContract } from '@keel/contracts';
import { useState } from 'react';
import { useContractMutation } from '../../shared/api/queries.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, TextField } from '../../shared/ui/components.tsx';
import { finishLogin } from '../auth/finish-login.ts';
import { useWalletErrorText, useWalletSignature } from './useWalletSignature.ts';

/**
 * "Log in with wallet" on /login (issue 21, ADR 0047): the wallet signs Keel's EIP-4361 message and
 * the account the address is bound to is logged in. An account with two-step login is asked for
 * its code, and the same signed message is sent again with it.
 */
export function WalletLoginButton({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t, adoptLocale } = useI18n();
  const sign = useWalletSignature('login');
  const login = useContractMutation(walletLoginContract);
  const errorText = useWalletErrorText();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState<{ message: string; signature: string } | null>(null);
  const [totp, setTotp] = useState('');

  const send = async (signed: { message: string; signature: string }, code?: string) => {
    const answer = await login.mutateAsync({ body: { ...signed, totp: code } });
    finishLogin(answer, adoptLocale);
    onLoggedIn();
  };

  const run = async (withCode: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      if (withCode && pending) await send(pending, totp.trim());
      else {
        const signed = await sign();
        try {
          await send(signed);
        } catch (error) {
          if (error instanceof ApiError && error.message === errorCatalogue.TWO_STEP_CODE_REQUIRED.msg) {
            setPending(signed);
            return;
          }
          throw error;
        }
      }
    } catch (error) {
      if (isSessionError(error)) return;
      setPending(null);
      setTotp('');
      setProblem(errorText(error) ?? t('web.walletLogin.problem.wallet_error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="wallet-login" data-testid="wallet-login">
      {problem && (
        <Notice tone="error" testId="wallet-login-error">
          {problem}
        </Notice>
      )}
      {pending ? (
        <>
          <TextField
            label={t('web.auth.totpCode')}
            inputMode="numeric"
            autoComplete="one-time-code"
            hint={t('web.auth.totpHint')}
            maxLength={6}
            value={totp}
            onChange={(event) => setTotp(event.target.value)}
            name="wallet-totp"
          />
          <Button type="button" block busy={busy} onClick={() => void run(true)} data-testid="wallet-login-totp">
            {t('web.login.submit')}
          </Button>
        </>
      ) : (
        <Button type="button" variant="secondary" block busy={busy} onClick={() => void run(false)} data-testid="wallet-login-button">
          {t('web.walletLogin.button')}
        </Button>
      )}
      <p className="field-hint">{t('web.walletLogin.neverAsks')}</p>
    </div>
  );
}
