import { addWithdrawalAddressContract, ApiError, type ContractData, errorCatalogue, listWithdrawalAddressesContract, removeWithdrawalAddressContract } from '@keel/contracts';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { applyRefusal, FormError, useContractForm } from '../../shared/forms/index.ts';
import { formatDateTime } from '../../shared/format/time.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { addressFormSchema, addressProblemOfMessage } from './form-checks.ts';
import { addressProblemKey } from './refusal.ts';
import { useRemoveItem, WalletList } from './WalletList.tsx';
import { ConfirmAction, MonoText, NetworkName, type Refused, RefusalNotice, refusedBy, Time } from './WalletParts.tsx';
import { addressNetworkKeys, channelKeys, channelNetworks, networkKeys, type WalletNetwork, walletNetworkList } from './wallet-labels.ts';
import { isChannelId, withdrawPath } from './wallet-paths.ts';

type BookAddress = ContractData<typeof listWithdrawalAddressesContract>['items'][number];
const isNetwork = (value: string): value is WalletNetwork => (walletNetworkList as readonly string[]).includes(value);

function AddressRow({
  item,
  now,
  picker,
  pickNetwork,
  onChoose,
  onRemove,
  removing,
}: {
  item: BookAddress;
  now: number;
  picker: boolean;
  pickNetwork: WalletNetwork | undefined;
  onChoose: (item: BookAddress) => void;
  onRemove: (item: BookAddress) => void;
  removing: boolean;
}) {
  const { t } = useI18n();
  const held = Date.parse(item.usableFrom) > now;
  const otherNetwork = picker && pickNetwork !== undefined && item.network !== pickNetwork;
  return (
    <li className={otherNetwork ? 'wallet-row is-muted' : 'wallet-row'} data-testid={`address-row-${item.id}`} data-network={item.network}>
      <div className="wallet-row-head">
        <strong data-testid="address-row-label">{item.label || t('web.address.noLabel')}</strong>
        <span className="state-badge" data-testid="address-row-network">
          <NetworkName network={item.network} />
        </span>
        {item.ownershipProven && (
          <span className="state-badge state-verified" data-testid="address-row-proven" title={t('web.walletConnect.provenHint')}>
            {t('web.walletConnect.proven')}
          </span>
        )}
      </div>
      <MonoText value={item.address} testId="address-row-address" />
      {held ? (
        <p className="field-hint warning-text" data-testid="address-row-usable-from" data-usable-from={item.usableFrom}>
          {t('web.address.usableFrom', { time: formatDateTime(item.usableFrom) })}
        </p>
      ) : (
        <p className="field-hint" data-testid="address-row-usable">
          {t('web.address.usable')}
        </p>
      )}
      <p className="muted wallet-row-small">
        {t('web.address.addedAt')} <Time iso={item.createdAt} />
      </p>
      <div className="wallet-row-actions">
        {picker &&
          (otherNetwork ? (
            <span className="field-hint" data-testid="address-row-other-network">
              {t('web.address.otherNetwork')}
            </span>
          ) : (
            <Button className="btn-small" onClick={() => onChoose(item)} data-testid="address-row-choose">
              {t('web.address.choose')}
            </Button>
          ))}
        <ConfirmAction
          label={t('web.address.remove')}
          question={t('web.address.removeQuestion')}
          confirmLabel={t('web.address.removeConfirm')}
          busy={removing}
          onConfirm={() => onRemove(item)}
          testId="address-row-remove"
        />
      </div>
    </li>
  );
}

/** Adds an address to the book: the contract's body, the address checked for its network (`addressFormSchema`). */
function AddAddressForm({ defaultNetwork, onAdded }: { defaultNetwork: WalletNetwork; onAdded: (item: BookAddress) => void }) {
  const { t } = useI18n();
  const errorText = useMoneyErrorText();
  const [refused, setRefused] = useState<Refused | null>(null);
  const add = useContractMutation(addWithdrawalAddressContract, { invalidates: [listWithdrawalAddressesContract] });
  const form = useContractForm(addressFormSchema, { defaultValues: { network: defaultNetwork, address: '', label: '' } });
  const network = form.watch('network') as WalletNetwork;
  const { errors } = form.formState;

  const addressProblem = addressProblemOfMessage(errors.address?.message);
  const addressText =
    addressProblem === 'wrong_network'
      ? t('web.address.problem.wrongNetworkFor', { network: t(networkKeys[network]) })
      : addressProblem
        ? t(addressProblemKey(addressProblem) ?? 'web.address.problem.format')
        : errorText(errors.address);

  const submit = form.handleSubmit(async (body) => {
    setRefused(null);
    try {
      const added = await add.mutateAsync({ body });
      form.reset({ network: body.network, address: '', label: '' });
      onAdded(added);
    } catch (error) {
      if (isSessionError(error)) return;
      // A refused address names its problem on the field; "already added" and "too many" above the form.
      if (error instanceof ApiError && error.message === errorCatalogue.PARAMETER_ERROR.msg) applyRefusal(form, error);
      else setRefused(refusedBy(error));
    }
  });

  return (
    <form className="card form-card" onSubmit={submit} noValidate data-testid="address-form">
      <h2 className="card-title">{t('web.address.addTitle')}</h2>
      {refused && <RefusalNotice message={refused.message} data={refused.data} />}
      <FormError form={form} />
      <SelectField
        label={t('web.address.network')}
        value={network}
        options={walletNetworkList.map((each) => ({ value: each, label: t(addressNetworkKeys[each]) }))}
        testId="address-network"
        onChange={(value) => {
          if (isNetwork(value)) form.setValue('network', value, { shouldValidate: form.formState.isSubmitted });
          setRefused(null);
        }}
      />
      <TextField
        label={t('web.address.address')}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        dir="ltr"
        maxLength={120}
        data-testid="address-input"
        {...form.register('address', { onChange: () => setRefused(null) })}
        error={addressText}
      />
      <TextField
        label={t('web.address.label')}
        autoComplete="off"
        maxLength={40}
        hint={t('web.address.labelHint')}
        data-testid="address-label"
        {...form.register('label')}
        error={errorText(errors.label)}
      />
      <p className="field-hint">{t('web.address.checkNote')}</p>
      <Button type="submit" block busy={add.isPending} data-testid="address-submit">
        {t('web.address.add')}
      </Button>
    </form>
  );
}

/**
 * /assets/WalletAddress/{selete}: the withdrawal address book. As a picker (`select` or `1`)
 * choosing an address returns to the withdrawal form with it (and the channel the form had);
 * otherwise it is the manage view. A new address is usable after the published hold.
 */
export function AddressBook({ picker }: { picker: boolean }) {
  const { t } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const channelParam = params.get('channel');
  const channel = isChannelId(channelParam) ? channelParam : undefined;
  const pickNetwork = channel ? channelNetworks[channel] : undefined;
  const book = useContractQuery(listWithdrawalAddressesContract);
  const removal = useContractMutation(removeWithdrawalAddressContract, { invalidates: [listWithdrawalAddressesContract] });
  // The ticking clock re-draws the rows as holds end; the time compared is read when drawing, so an
  // address added (and the list reloaded) since the last tick is judged against now, not then.
  const tick = useNow(true, 30_000);
  const now = Math.max(tick, Date.now());
  const { removing, error, remove } = useRemoveItem({
    call: (addressId) => removal.mutateAsync({ params: { addressId } }),
    removedKey: 'web.address.removed',
    reload: () => void book.refetch(),
  });

  const items = book.data?.items ?? [];
  // In the picker, addresses of the channel's network come first.
  const sorted = pickNetwork ? [...items].sort((a, b) => Number(b.network === pickNetwork) - Number(a.network === pickNetwork)) : items;
  return (
    <>
      {picker && channel && (
        <Notice testId="address-picker-channel">{t('web.address.pickFor', { channel: t(channelKeys[channel]), network: t(networkKeys[channelNetworks[channel]]) })}</Notice>
      )}
      {book.data && <p className="muted" data-testid="address-hold-note">{t('web.address.holdNote', { hours: book.data.holdHours })}</p>}
      <WalletList
        source={{ failed: loadFailed(book), reload: () => void book.refetch() }}
        items={book.data ? sorted : null}
        error={error} emptyText={t('web.address.empty')} testId="addresses">
        {(item) => (
          <AddressRow
            key={item.id}
            item={item}
            now={now}
            picker={picker}
            pickNetwork={pickNetwork}
            removing={removing === item.id}
            onChoose={(chosen) => navigate(withdrawPath({ addressId: chosen.id, channel }), { replace: true })}
            onRemove={(chosen) => void remove(chosen.id)}
          />
        )}
      </WalletList>
      <AddAddressForm
        defaultNetwork={pickNetwork ?? 'tron'}
        onAdded={(added) => {
          toast(t('web.address.added', { time: formatDateTime(added.usableFrom) }));
        }}
      />
      {picker && (
        <Link to={withdrawPath({ channel })} className="btn btn-ghost btn-block" data-testid="address-picker-back">
          {t('web.address.backToWithdraw')}
        </Link>
      )}
    </>
  );
}
