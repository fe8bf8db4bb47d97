import {
  addWithdrawalAddressContract,
  bindWalletContract,
  getWalletBindingContract,
  listWithdrawalAddressesContract,
  securityOverviewContract,
  unbindWalletContract,
} from '@keel/contracts';
import { shortAddress } from '@keel/domain';
import { useState } from 'react';
import { Link } from 'react-router';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { useWalletErrorText, useWalletSignature } from './useWalletSignature.ts';

/**
 * /safeSetting/wallet (issue 21, ADR 0047): connect a wallet by signing Keel's message and bind
 * its address with the payment password; show the bound address (shortened), add it to the
 * withdrawal address book as an ownership-proven address (the hold still applies), or unbind it.
 */
export function WalletConnectSettings() {
  const { t } = useI18n();
  const toast = useToast();
  const binding = useContractQuery(getWalletBindingContract);
  const book = useContractQuery(listWithdrawalAddressesContract);
  const sign = useWalletSignature('bind');
  const bind = useContractMutation(bindWalletContract, { invalidates: [getWalletBindingContract, securityOverviewContract] });
  const unbind = useContractMutation(unbindWalletContract, { invalidates: [getWalletBindingContract, securityOverviewContract] });
  const addToBook = useContractMutation(addWithdrawalAddressContract, { invalidates: [listWithdrawalAddressesContract] });
  const errorText = useWalletErrorText();
  const [paymentPassword, setPaymentPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fieldProblem, setFieldProblem] = useState<string | undefined>(undefined);

  const address = binding.data?.address ?? null;
  const inBook = address !== null && (book.data?.items ?? []).some((item) => item.network === 'ethereum' && item.address === address);

  const attempt = async (work: () => Promise<void>) => {
    setProblem(null);
    setFieldProblem(undefined);
    if (!/^\d{6}$/.test(paymentPassword)) {
      setFieldProblem(t('web.validation.sixDigits'));
      return;
    }
    setBusy(true);
    try {
      await work();
      setPaymentPassword('');
    } catch (error) {
      if (!isSessionError(error)) setProblem(errorText(error) ?? t('web.walletLogin.problem.wallet_error'));
    } finally {
      setBusy(false);
    }
  };

  const connect = () =>
    attempt(async () => {
      const signed = await sign();
      await bind.mutateAsync({ body: { ...signed, paymentPassword } });
      toast(t('web.walletConnect.bound'));
    });
  const disconnect = () =>
    attempt(async () => {
      await unbind.mutateAsync({ body: { paymentPassword } });
      toast(t('web.walletConnect.unbound'));
    });
  const addAddress = async () => {
    if (!address) return;
    setProblem(null);
    try {
      await addToBook.mutateAsync({ body: { network: 'ethereum', address, label: t('web.walletConnect.bookLabel') } });
      toast(t('web.walletConnect.addedToBook'));
    } catch (error) {
      if (!isSessionError(error)) setProblem(errorText(error) ?? t('web.walletLogin.problem.wallet_error'));
    }
  };

  return (
    <>
      {loadFailed(binding) && <LoadFailedNotice onRetry={() => void binding.refetch()} />}
      <section className="card" aria-labelledby="wallet-connect-title" data-testid="wallet-connect">
        <h2 className="card-title" id="wallet-connect-title">
          {t('web.walletConnect.title')}
        </h2>
        <p className="muted">{t('web.walletConnect.intro')}</p>
        <Notice testId="wallet-never-asks">{t('web.walletLogin.neverAsks')}</Notice>
        {problem && (
          <Notice tone="error" testId="wallet-connect-error">
            {problem}
          </Notice>
        )}
        {binding.data &&
          (address ? (
            <div data-testid="wallet-bound">
              <p>
                {t('web.walletConnect.boundAddress')}{' '}
                <strong data-testid="wallet-bound-address" data-address={address} title={address}>
                  {shortAddress(address)}
                </strong>
              </p>
              {binding.data.boundAt && <p className="field-hint">{t('web.walletConnect.boundAt', { time: formatDateTime(binding.data.boundAt) })}</p>}
              {inBook ? (
                <p className="field-hint" data-testid="wallet-in-book">
                  {t('web.walletConnect.inBook')} <Link to="/assets/WalletAddress/manage">{t('web.walletConnect.openBook')}</Link>
                </p>
              ) : (
                <>
                  <p className="field-hint">{t('web.walletConnect.addHint', { hours: book.data?.holdHours ?? 24 })}</p>
                  <Button type="button" variant="secondary" block busy={addToBook.isPending} onClick={() => void addAddress()} data-testid="wallet-add-to-book">
                    {t('web.walletConnect.addToBook')}
                  </Button>
                </>
              )}
            </div>
          ) : (
            <p className="muted" data-testid="wallet-not-bound">
              {t('web.walletConnect.notBound')}
            </p>
          ))}
        <TextField
          label={t('web.walletConnect.paymentPassword')}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          value={paymentPassword}
          onChange={(event) => setPaymentPassword(event.target.value)}
          error={fieldProblem}
          name="paymentPassword"
          data-testid="wallet-payment-password"
        />
        {address ? (
          <Button type="button" variant="danger" block busy={busy} onClick={() => void disconnect()} data-testid="wallet-unbind">
            {t('web.walletConnect.unbind')}
          </Button>
        ) : (
          <Button type="button" block busy={busy} onClick={() => void connect()} data-testid="wallet-connect-button">
            {t('web.walletConnect.connect')}
          </Button>
        )}
      </section>
    </>
  );
}
