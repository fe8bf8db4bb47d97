import { ApiError, createDepositContract, depositAddressContract, type ContractData, errorCatalogue } from '@keel/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { api, isSessionError } from '../../shared/api/client.ts';
import { checkAmountInput, normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { QrCode } from '@keel/ui';
import { Button, Card, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { scaleOf } from '../assets/accounts.ts';
import { amountProblemText } from '../assets/amount-problems.ts';
import { PhotoPicker } from '../verification/PhotoPicker.tsx';
import { txHashProblem } from './form-checks.ts';
import { type ChannelView, ChannelName, MonoText, NetworkName, RefusalNotice, useRefusalFormat, useWalletOverview } from './WalletParts.tsx';
import { channelKeys, networkKeys } from './wallet-labels.ts';
import { depositCreatedPath, isChannelId } from './wallet-paths.ts';

type DepositAddress = ContractData<typeof depositAddressContract>;
type AddressState = { state: 'loading' } | { state: 'ready'; address: DepositAddress } | { state: 'error'; message: string; data: unknown };
interface Refused {
  message: string;
  data: unknown;
}

/** How a channel's deposits are checked: by finance staff, or on chain after N confirmations. */
function ReviewMode({ channel, testId }: { channel: ChannelView; testId?: string }) {
  const { t } = useI18n();
  return (
    <span className="muted" data-testid={testId} data-review={channel.depositReview}>
      {channel.depositReview === 'chain' ? t('web.deposit.reviewChain', { count: channel.confirmations }) : t('web.deposit.reviewStaff')}
    </span>
  );
}

/** The deposit address of the chosen channel: QR code, the text with a copy button, and the warnings. */
function AddressCard({ channel }: { channel: ChannelView }) {
  const { t, tServer } = useI18n();
  const [state, setState] = useState<AddressState>({ state: 'loading' });
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    void attempt;
    setState({ state: 'loading' });
    setCopied(null);
    api(depositAddressContract, { query: { channel: channel.id } })
      .then((address) => {
        if (current) setState({ state: 'ready', address });
      })
      .catch((error: unknown) => {
        if (!current || isSessionError(error)) return;
        if (error instanceof ApiError) setState({ state: 'error', message: error.message, data: error.data });
        else setState({ state: 'error', message: errorCatalogue.SYSTEM_ERROR.msg, data: null });
      });
    return () => {
      current = false;
    };
  }, [channel.id, attempt]);

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  if (state.state === 'loading') return <p className="muted">{t('web.common.loading')}</p>;
  if (state.state === 'error') {
    return (
      <>
        <Notice tone="error" title={tServer(state.message)} testId="deposit-address-error">
          {state.message === errorCatalogue.DEPOSIT_ADDRESS_UNAVAILABLE.msg ? t('web.deposit.addressUnavailableBody') : null}
        </Notice>
        {state.message !== errorCatalogue.DEPOSIT_ADDRESS_UNAVAILABLE.msg && (
          <Button variant="secondary" onClick={() => setAttempt((value) => value + 1)}>
            {t('web.common.retry')}
          </Button>
        )}
      </>
    );
  }
  const { address } = state;
  return (
    <div className="deposit-address" data-testid="deposit-address-card" data-demo={address.demo ? 'true' : 'false'}>
      {address.demo && (
        <Notice tone="error" title={t('web.deposit.demoTitle')} testId="deposit-demo-warning">
          {t('web.deposit.demoBody')}
        </Notice>
      )}
      <Notice tone="warning" title={t('web.deposit.networkTitle', { asset: channel.asset })} testId="deposit-network-warning">
        {t('web.deposit.networkBody', { asset: channel.asset, network: t(networkKeys[address.network]) })}
      </Notice>
      <dl className="facts">
        <div>
          <dt>{t('web.deposit.network')}</dt>
          <dd data-testid="deposit-network" data-network={address.network}>
            <NetworkName network={address.network} />
          </dd>
        </div>
        <div>
          <dt>{t('web.deposit.asset')}</dt>
          <dd>{channel.asset}</dd>
        </div>
      </dl>
      <div className="qr-frame">
        <QrCode text={address.address} label={t('web.deposit.qrLabel', { channel: t(channelKeys[channel.id]) })} />
      </div>
      <div className="copy-row">
        <MonoText value={address.address} testId="deposit-address" />
        <Button variant="secondary" className="btn-small" onClick={() => void copy(address.address)} data-testid="deposit-copy">
          {t('web.deposit.copy')}
        </Button>
      </div>
      <p className={copied === 'failed' ? 'field-error' : 'field-hint'} role="status" data-testid="deposit-copied" data-copied={copied ?? 'no'}>
        {copied === 'yes' ? t('web.deposit.copied') : copied === 'failed' ? t('web.deposit.copyFailed') : '\u00a0'}
      </p>
    </div>
  );
}

/**
 * /assets/recharge: choose a channel (currency and chain), send to the deposit address shown, then
 * report the deposit with its transaction hash and an optional screenshot. Finance staff review it,
 * or the chain is checked where a gateway is configured; the channel says which.
 */
export function DepositForm() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const overview = useWalletOverview();
  const actionKey = useActionKey();
  const channels = overview.data?.channels.filter((channel) => channel.depositEnabled) ?? [];
  const channelParam = params.get('channel');
  const channel = channels.find((each) => each.id === channelParam);
  const [amount, setAmount] = useState('');
  const [txHash, setTxHash] = useState('');
  const [proof, setProof] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);

  const format = useRefusalFormat();
  const scale = channel ? scaleOf(channel.asset) : 18;
  const amountProblem = checkAmountInput(amount, scale);
  const hashProblem = txHashProblem(channel?.network, txHash);

  function choose(id: string) {
    if (!isChannelId(id)) return;
    const next = new URLSearchParams(params);
    next.set('channel', id);
    setParams(next, { replace: true });
    setRefused(null);
    // A new channel is a new start: its problems show at the next submit.
    setChecked(false);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    setRefused(null);
    // Spec section 5: "a recharge channel must be selected" — the server refuses the same way.
    if (!channel) {
      setRefused({ message: errorCatalogue.SELECT_RECHARGE_CHANNEL.msg, data: null });
      return;
    }
    if (amountProblem || hashProblem) return;
    const body = {
      channel: channel.id,
      amount: normaliseAmountInput(amount),
      txHash: txHash.trim(),
      ...(proof ? { proofUploadId: proof } : {}),
    };
    setBusy(true);
    try {
      const answer = await api(createDepositContract, { body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
      actionKey.settle();
      navigate(depositCreatedPath(answer.id));
    } catch (error) {
      actionKey.settle(error);
      setBusy(false);
      if (isSessionError(error)) return;
      setRefused(error instanceof ApiError ? { message: error.message, data: error.data } : { message: errorCatalogue.SYSTEM_ERROR.msg, data: null });
    }
  }

  return (
    <>
      {overview.failed && <LoadFailedNotice onRetry={overview.reload} />}
      <Card>
        <h2 className="card-title">{t('web.deposit.stepChannel')}</h2>
        {overview.data === null ? (
          <p className="muted">{t('web.common.loading')}</p>
        ) : channels.length === 0 ? (
          <Notice tone="warning" testId="deposit-no-channels">
            {t('web.deposit.noChannels')}
          </Notice>
        ) : (
          <fieldset className="channel-list" data-testid="deposit-channels">
            <legend className="visually-hidden">{t('web.deposit.stepChannel')}</legend>
            {channels.map((each) => (
              <label key={each.id} className={each.id === channel?.id ? 'channel-option active' : 'channel-option'} data-testid={`deposit-channel-${each.id}`}>
                <input type="radio" name="channel" value={each.id} checked={each.id === channel?.id} onChange={() => choose(each.id)} />
                <span className="channel-option-text">
                  <strong>
                    <ChannelName channel={each.id} />
                  </strong>
                  <ReviewMode channel={each} testId={`deposit-review-${each.id}`} />
                </span>
              </label>
            ))}
          </fieldset>
        )}
      </Card>

      {channel && (
        <Card>
          <h2 className="card-title">{t('web.deposit.stepSend')}</h2>
          <AddressCard key={channel.id} channel={channel} />
        </Card>
      )}

      <form className="card form-card" onSubmit={submit} noValidate data-testid="deposit-form">
        <h2 className="card-title">{t('web.deposit.stepReport')}</h2>
        <p className="muted">
          {channel ? <ReviewMode channel={channel} testId="deposit-review-mode" /> : t('web.deposit.reportIntro')}
        </p>
        {refused && <RefusalNotice message={refused.message} data={refused.data} asset={channel?.asset} />}
        <TextField
          label={channel ? t('web.deposit.amountIn', { asset: channel.asset }) : t('web.deposit.amount')}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={amount}
          maxLength={40}
          data-testid="deposit-amount"
          hint={channel ? t('web.deposit.amountMax', { max: format.amount(channel.depositMax, channel.asset) }) : undefined}
          onChange={(event) => {
            setAmount(event.target.value);
            setRefused(null);
          }}
          error={
            checked && channel
              ? amountProblemText(t, amountProblem, { asset: channel.asset, scale, requiredText: t('web.deposit.amountRequired') })
              : undefined
          }
        />
        <TextField
          label={t('web.deposit.txHash')}
          name="txHash"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          dir="ltr"
          value={txHash}
          maxLength={100}
          hint={t('web.deposit.txHashHint')}
          data-testid="deposit-txhash"
          onChange={(event) => {
            setTxHash(event.target.value);
            setRefused(null);
          }}
          error={
            checked && channel && hashProblem
              ? hashProblem === 'required'
                ? t('web.deposit.txHashRequired')
                : t('web.deposit.txHashFormat', { network: t(networkKeys[channel.network]) })
              : undefined
          }
        />
        <PhotoPicker
          label={t('web.deposit.screenshot')}
          name="proof"
          purpose="deposit_proof"
          onUploading={setUploading}
          onChange={(value) => setProof(value?.uploadId ?? null)}
        />
        <p className="field-hint">{t('web.deposit.screenshotHint')}</p>
        <Button type="submit" block busy={busy} disabled={uploading} data-testid="deposit-submit">
          {t('web.deposit.submit')}
        </Button>
      </form>
    </>
  );
}
