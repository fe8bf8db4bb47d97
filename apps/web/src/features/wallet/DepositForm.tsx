import { ApiError, createDepositContract, depositAddressContract, errorCatalogue, listDepositsContract } from '@keel/contracts';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { QrCode } from '@keel/ui';
import { Button, Card, LoadFailedNotice, Notice, TextField } from '../../shared/ui/components.tsx';
import { scaleOf } from '../assets/accounts.ts';
import { amountField } from '../assets/amount-field.ts';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { PhotoPicker } from '../verification/PhotoPicker.tsx';
import { TX_HASH_FORMAT, txHashField } from './form-checks.ts';
import {
  type ChannelView,
  ChannelName,
  MonoText,
  NetworkName,
  type Refused,
  RefusalNotice,
  refusedBy,
  useRefusalFormat,
  useWalletOverview,
} from './WalletParts.tsx';
import { channelKeys, networkKeys } from './wallet-labels.ts';
import { depositCreatedPath, isChannelId } from './wallet-paths.ts';

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
  // The address is assigned on the first ask and never changes: cached for as long as the app runs.
  const query = useContractQuery(depositAddressContract, { query: { channel: channel.id } }, { staleTime: Number.POSITIVE_INFINITY });
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  if (query.isError) {
    // A session error already sent the user to login.
    if (!loadFailed(query)) return null;
    const message = query.error instanceof ApiError ? query.error.message : errorCatalogue.SYSTEM_ERROR.msg;
    return (
      <>
        <Notice tone="error" title={tServer(message)} testId="deposit-address-error">
          {message === errorCatalogue.DEPOSIT_ADDRESS_UNAVAILABLE.msg ? t('web.deposit.addressUnavailableBody') : null}
        </Notice>
        {message !== errorCatalogue.DEPOSIT_ADDRESS_UNAVAILABLE.msg && (
          <Button variant="secondary" onClick={() => void query.refetch()}>
            {t('web.common.retry')}
          </Button>
        )}
      </>
    );
  }
  const address = query.data;
  if (address === undefined) return <p className="muted">{t('web.common.loading')}</p>;
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
 * or the chain is checked where a gateway is configured; the channel says which. The report form is
 * the deposit contract's body: the amount at the asset's scale (`amountField`), the hash shaped for
 * the channel's network (`txHashField`).
 */
export function DepositForm() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const overview = useWalletOverview();
  const report = useContractMutation(createDepositContract, { invalidates: [listDepositsContract] });
  const actionKey = useActionKey();
  const errorText = useMoneyErrorText();
  const channels = overview.data?.channels.filter((channel) => channel.depositEnabled) ?? [];
  const channelParam = params.get('channel');
  const channel = channels.find((each) => each.id === channelParam);
  const [proof, setProof] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);

  const format = useRefusalFormat();
  const scale = channel ? scaleOf(channel.asset) : 18;
  // The channel is chosen outside the form (it lives in the address): the schema reads it when it checks.
  const chosen = useRef(channel);
  chosen.current = channel;
  const schema = useMemo(
    () =>
      bodySchema(createDepositContract).pick({ amount: true, txHash: true }).safeExtend({
        amount: amountField(() => ({ scale: chosen.current ? scaleOf(chosen.current.asset) : 18 })),
        txHash: txHashField(() => chosen.current?.network),
      }),
    [],
  );
  const form = useContractForm(schema, { defaultValues: { amount: '', txHash: '' } });
  const { errors } = form.formState;

  function choose(id: string) {
    if (!isChannelId(id)) return;
    const next = new URLSearchParams(params);
    next.set('channel', id);
    setParams(next, { replace: true });
    setRefused(null);
    // A new channel is a new start: its problems show at the next submit.
    form.clearErrors();
  }

  const send = form.handleSubmit(async (values) => {
    if (!channel) return;
    const body = { channel: channel.id, ...values, ...(proof ? { proofUploadId: proof } : {}) };
    try {
      const answer = await report.mutateAsync({ body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
      actionKey.settle();
      navigate(depositCreatedPath(answer.id));
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      // A refused amount or hash is marked on its field; the rest names its rule above the form.
      if (error instanceof ApiError && error.message === errorCatalogue.PARAMETER_ERROR.msg) applyRefusal(form, error);
      else if (error instanceof ApiError && error.message === errorCatalogue.TX_HASH_ALREADY_USED.msg) {
        applyRefusal(form, error, { fieldErrors: { TX_HASH_ALREADY_USED: 'txHash' } });
      } else setRefused(refusedBy(error));
    }
  });

  function submit(event: FormEvent) {
    setRefused(null);
    // Spec section 5: "a recharge channel must be selected" — the server refuses the same way.
    if (!channel) {
      event.preventDefault();
      setRefused({ message: errorCatalogue.SELECT_RECHARGE_CHANNEL.msg, data: null });
      return;
    }
    void send(event);
  }

  return (
    <>
      {loadFailed(overview) && <LoadFailedNotice onRetry={() => void overview.refetch()} />}
      <Card>
        <h2 className="card-title">{t('web.deposit.stepChannel')}</h2>
        {overview.data === undefined ? (
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
        <FormError form={form} />
        <TextField
          label={channel ? t('web.deposit.amountIn', { asset: channel.asset }) : t('web.deposit.amount')}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          maxLength={40}
          data-testid="deposit-amount"
          hint={channel ? t('web.deposit.amountMax', { max: format.amount(channel.depositMax, channel.asset) }) : undefined}
          {...form.register('amount', { onChange: () => setRefused(null) })}
          error={channel ? errorText(errors.amount, { required: t('web.deposit.amountRequired'), asset: channel.asset, scale }) : undefined}
        />
        <TextField
          label={t('web.deposit.txHash')}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          dir="ltr"
          maxLength={100}
          hint={t('web.deposit.txHashHint')}
          data-testid="deposit-txhash"
          {...form.register('txHash', { onChange: () => setRefused(null) })}
          error={
            channel
              ? errorText(errors.txHash, {
                  required: t('web.deposit.txHashRequired'),
                  own: { [TX_HASH_FORMAT]: t('web.deposit.txHashFormat', { network: t(networkKeys[channel.network]) }) },
                })
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
        <Button type="submit" block busy={report.isPending || report.isSuccess} disabled={uploading} data-testid="deposit-submit">
          {t('web.deposit.submit')}
        </Button>
      </form>
    </>
  );
}
