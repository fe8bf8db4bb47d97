import {
  ApiError,
  type ContractData,
  createWithdrawalContract,
  errorCatalogue,
  listAccountsContract,
  listRecordsContract,
  listWithdrawalAddressesContract,
  listWithdrawalsContract,
  paymentPasswordSchema,
  walletOverviewContract,
} from '@keel/contracts';
import { useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { bodySchema, useContractForm } from '../../shared/forms/index.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, LoadFailedNotice, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { balanceOf, scaleOf } from '../assets/accounts.ts';
import { type AmountLimits, amountField, amountProblem } from '../assets/amount-field.ts';
import { AvailableWithAll } from '../assets/AvailableWithAll.tsx';
import { useAccounts } from '../assets/useAccounts.ts';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { describeRefusal } from './refusal.ts';
import { type ChannelView, Fact, MonoText, type Refused, RefusalNotice, refusedBy, useRefusalFormat, useWalletOverview } from './WalletParts.tsx';
import { WithdrawRules } from './WithdrawRules.tsx';
import { channelKeys, networkKeys } from './wallet-labels.ts';
import { addressPickerPath, isChannelId, isRecordId } from './wallet-paths.ts';
import { maxWithdrawable, totalWithFee } from './withdraw-math.ts';

type BookAddress = ContractData<typeof listWithdrawalAddressesContract>['items'][number];
const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, 6);

/** The channel the form works on: the one in the address, else one fitting the chosen address, else the first open one. */
function pickChannel(channels: ChannelView[], param: string | null, address: BookAddress | undefined): ChannelView | undefined {
  const named = isChannelId(param) ? channels.find((each) => each.id === param) : undefined;
  if (named) return named;
  if (address) return channels.find((each) => each.network === address.network) ?? channels[0];
  return channels[0];
}

/**
 * /assets/withdraw: channel, a bound address from the address book, amount, the payment password.
 * The published fee comes on top of the amount; amount + fee is frozen until the withdrawal ends.
 * The rules panel below lists every rule that can refuse it, and a refusal names the rule. The
 * channel and the address live in the page's address (the address-book picker returns to it); the
 * form holds the amount (`amountField`: the asset's scale, the channel's minimum, amount + fee within
 * the coin balance) and the payment password (the contracts' `paymentPasswordSchema`).
 */
export function WithdrawForm() {
  const { t, tServer } = useI18n();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const overview = useWalletOverview();
  const book = useContractQuery(listWithdrawalAddressesContract);
  const { accounts, failed: accountsFailed, reload: reloadAccounts } = useAccounts();
  // A withdrawal holds amount + fee (a balance and a record), joins the lists, and counts against
  // the day's limits in the overview.
  const withdraw = useContractMutation(createWithdrawalContract, {
    invalidates: [listAccountsContract, listRecordsContract, listWithdrawalsContract, walletOverviewContract],
  });
  const actionKey = useActionKey();
  const format = useRefusalFormat();
  const now = useNow(true, 30_000);
  const errorText = useMoneyErrorText();
  const [refused, setRefused] = useState<Refused | null>(null);
  // The amount's limits follow the channel and the balance on screen: the schema reads them when it checks.
  const limits = useRef<AmountLimits>({ scale: scaleOf('USDT') });
  const schema = useMemo(
    () => bodySchema(createWithdrawalContract).pick({ amount: true, paymentPassword: true }).safeExtend({ amount: amountField(() => limits.current), paymentPassword: paymentPasswordSchema }),
    [],
  );
  const form = useContractForm(schema, { defaultValues: { amount: '', paymentPassword: '' } });
  const { errors, isSubmitted } = form.formState;
  const amount = form.watch('amount');

  const channels = overview.data?.channels.filter((each) => each.withdrawEnabled) ?? [];
  const addressParam = params.get('addressId');
  const chosenAddress = isRecordId(addressParam) ? book.data?.items.find((each) => each.id === addressParam) : undefined;
  const channel = pickChannel(channels, params.get('channel'), chosenAddress);
  const usable = channel ? (book.data?.items.filter((each) => each.network === channel.network) ?? []) : [];
  const address = chosenAddress && channel && chosenAddress.network === channel.network ? chosenAddress : undefined;
  const asset = channel?.asset ?? 'USDT';
  const scale = scaleOf(asset, accounts ?? undefined);
  const available = accounts ? (balanceOf(accounts, 'coin', asset)?.available ?? '0') : undefined;
  limits.current = channel ? { scale, fee: channel.withdrawFee, min: channel.withdrawMin, available } : { scale };
  // Read as typed for the figures below (and the one problem worth saying before the user submits:
  // amount + fee above the balance); the form's own check runs on submit.
  const typed = normaliseAmountInput(amount);
  const liveProblem = channel && typed !== '' ? amountProblem(typed, limits.current) : null;
  const validAmount = channel && typed !== '' && liveProblem === null ? typed : null;
  const addressProblem = address ? undefined : channel ? t('web.withdraw.addressRequired', { network: t(networkKeys[channel.network]) }) : undefined;
  const refusal = refused ? describeRefusal(refused.message, refused.data, format, asset) : null;

  function setQuery(changes: Record<string, string | null>) {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setParams(next, { replace: true });
    setRefused(null);
  }

  const amountWords = channel && {
    required: t('web.withdraw.amountRequired'),
    asset,
    scale,
    min: format.amount(channel.withdrawMin, asset),
    fee: format.amount(channel.withdrawFee, asset),
  };
  const amountText = !amountWords
    ? undefined
    : errors.amount
      ? errorText(errors.amount, amountWords)
      : liveProblem === 'aboveAvailableWithFee'
        ? errorText({ message: `amount:${liveProblem}` }, amountWords)
        : undefined;

  const submit = form.handleSubmit(async (values) => {
    setRefused(null);
    if (!channel || !address) return;
    const body = { channel: channel.id, addressId: address.id, ...values };
    try {
      const answer = await withdraw.mutateAsync({ body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
      actionKey.settle();
      navigate(`/assets/WithdrawPay/${answer.id}`);
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      setRefused(refusedBy(error));
      // Counts and limits may have moved; the rules panel shows them as they are now.
      void overview.refetch();
      if (error instanceof ApiError && error.message === errorCatalogue.WRONG_PAYMENT_PASSWORD.msg) form.setValue('paymentPassword', '');
    }
  });

  const someLoadFailed = loadFailed(overview) || loadFailed(book) || accountsFailed;
  const standing = overview.data?.standing;
  return (
    <>
      {someLoadFailed && (
        <LoadFailedNotice
          onRetry={() => {
            void overview.refetch();
            void book.refetch();
            reloadAccounts();
          }}
        />
      )}
      {overview.data && channels.length === 0 && (
        <Notice tone="warning" testId="withdraw-no-channels">
          {t('web.withdraw.noChannels')}
        </Notice>
      )}
      {standing && !standing.paymentPasswordSet && (
        <Notice tone="warning" title={tServer(errorCatalogue.PAYMENT_PASSWORD_NOT_SET.msg)} testId="withdraw-no-paypassword">
          <p>{t('web.withdraw.refusal.noPaymentPassword')}</p>
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small" data-testid="withdraw-set-paypassword">
            {t('web.withdraw.setPaymentPassword')}
          </Link>
        </Notice>
      )}
      <form className="card form-card" onSubmit={submit} noValidate data-testid="withdraw-form">
        {refused && <RefusalNotice message={refused.message} data={refused.data} asset={asset} />}
        <SelectField
          label={t('web.withdraw.channel')}
          value={channel?.id ?? ''}
          placeholder={overview.data ? t('web.withdraw.chooseChannel') : t('web.common.loading')}
          options={channels.map((each) => ({ value: each.id, label: t(channelKeys[each.id]) }))}
          testId="withdraw-channel"
          onChange={(value) => {
            if (!isChannelId(value)) return;
            const next = channels.find((each) => each.id === value);
            // The chosen address stays only while it is on the new channel's network.
            setQuery({ channel: value, addressId: chosenAddress && next && chosenAddress.network === next.network ? chosenAddress.id : null });
          }}
        />
        {channel && (
          <p className="field-hint" data-testid="withdraw-network">
            {t('web.withdraw.networkNote', { asset, network: t(networkKeys[channel.network]) })}
          </p>
        )}

        <div className={refusal?.field === 'address' ? 'address-choice has-error' : 'address-choice'}>
          <SelectField
            label={t('web.withdraw.address')}
            value={address?.id ?? ''}
            placeholder={book.data ? (usable.length > 0 ? t('web.withdraw.chooseAddress') : t('web.withdraw.noAddress')) : t('web.common.loading')}
            options={usable.map((each) => ({
              value: each.id,
              label: `${each.label ? `${each.label} · ` : ''}${each.address.slice(0, 8)}…${each.address.slice(-6)}`,
            }))}
            testId="withdraw-address"
            error={isSubmitted ? addressProblem : undefined}
            onChange={(value) => setQuery({ addressId: value, channel: channel?.id ?? null })}
          />
          {address && (
            <div className="chosen-address">
              <MonoText value={address.address} testId="withdraw-address-full" />
              {Date.parse(address.usableFrom) > now && (
                <p className="field-hint warning-text" data-testid="withdraw-address-hold">
                  {t('web.address.usableFrom', { time: formatDateTime(address.usableFrom) })}
                </p>
              )}
            </div>
          )}
          <Link to={addressPickerPath(channel?.id)} className="btn btn-ghost btn-small" data-testid="withdraw-pick-address">
            {t('web.withdraw.pickAddress')}
          </Link>
        </div>

        <div className="amount-field">
          <TextField
            label={t('web.withdraw.amount')}
            inputMode="decimal"
            autoComplete="off"
            placeholder={channel ? t('web.withdraw.minPlaceholder', { min: format.amount(channel.withdrawMin) }) : '0.00'}
            maxLength={40}
            data-testid="withdraw-amount"
            {...form.register('amount', { onChange: () => setRefused(null) })}
            error={amountText}
          />
          <AvailableWithAll
            available={available}
            asset={asset}
            testIdPrefix="withdraw"
            onAll={(all) => {
              if (!channel) return;
              form.setValue('amount', maxWithdrawable(all, channel.withdrawFee, scale) ?? '0', { shouldValidate: isSubmitted });
              setRefused(null);
            }}
          />
        </div>

        {channel && (
          <dl className="facts" data-testid="withdraw-figures">
            <Fact label={t('web.withdraw.fee')} testId="withdraw-fee">
              <Amount value={channel.withdrawFee} unit={asset} />
            </Fact>
            <Fact label={t('web.withdraw.minimum')} testId="withdraw-min">
              <Amount value={channel.withdrawMin} unit={asset} />
            </Fact>
            <Fact label={t('web.withdraw.receive')} testId="withdraw-receive">
              {validAmount ? <Amount value={validAmount} unit={asset} /> : '—'}
            </Fact>
            <Fact label={t('web.withdraw.totalFrozen')} testId="withdraw-total">
              {validAmount ? <Amount value={totalWithFee(validAmount, channel.withdrawFee, scale)} unit={asset} /> : '—'}
            </Fact>
          </dl>
        )}
        <p className="field-hint">{t('web.withdraw.feeNote')}</p>

        <TextField
          label={t('web.withdraw.paymentPassword')}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          hint={t('web.settings.sixDigitsHint')}
          data-testid="withdraw-paypassword"
          {...form.register('paymentPassword', {
            onChange: (event: { target: HTMLInputElement }) => {
              // Only digits can be typed (a payment password is six of them).
              const digits = digitsOnly(event.target.value);
              if (digits !== event.target.value) form.setValue('paymentPassword', digits);
              setRefused(null);
            },
          })}
          error={refusal?.field === 'paymentPassword' ? tServer(errorCatalogue.WRONG_PAYMENT_PASSWORD.msg) : errorText(errors.paymentPassword)}
        />
        <Button type="submit" block busy={withdraw.isPending || withdraw.isSuccess} disabled={!channel} data-testid="withdraw-submit">
          {t('web.withdraw.submit')}
        </Button>
      </form>
      {overview.data && <WithdrawRules rules={overview.data.rules} standing={overview.data.standing} now={now} />}
      <nav className="wallet-links">
        <Link to="/assets/WithdrawList" data-testid="to-withdraw-open">
          {t('web.withdraw.openTitle')}
        </Link>
        <Link to="/assets/withdrawLog" data-testid="to-withdraw-log">
          {t('web.withdraw.logTitle')}
        </Link>
      </nav>
    </>
  );
}
