import { listAccountsContract, listRecordsContract, transferBetweenAccountsContract } from '@keel/contracts';
import { useMemo, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { Link } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { useContractMutation } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, useContractForm } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { SwapVerticalIcon } from '../../shared/ui/icons.tsx';
import { type AccountBalance, type AccountKind, accountKindKeys, type AssetCode, assetCodes, balanceOf, offeredAccountKinds, scaleOf } from './accounts.ts';
import { type AmountLimits, amountField } from './amount-field.ts';
import { AvailableWithAll } from './AvailableWithAll.tsx';
import { useAccounts } from './useAccounts.ts';
import { useMoneyErrorText } from './useMoneyErrorText.ts';

interface Done {
  amount: string;
  asset: AssetCode;
  from: AccountBalance;
  to: AccountBalance;
}

/** The form's values as typed; the target starts unchosen. */
interface TransferValues {
  fromAccount: AccountKind;
  toAccount: AccountKind | '';
  asset: AssetCode;
  amount: string;
}

/**
 * /assets/transfer: moves an asset between two of the user's own accounts (free; decisions page).
 * The form is the transfer contract's body (the target is required and differs from the source),
 * its amount checked against the asset's scale and the source's balance (`amountField`). The
 * target account is a choice the user must make (spec section 5: "a transfer needs a target account").
 */
export function TransferForm() {
  const { t } = useI18n();
  const errorText = useMoneyErrorText();
  const { accounts, failed, reload } = useAccounts();
  // A transfer changes two balances and adds a record.
  const transfer = useContractMutation(transferBetweenAccountsContract, { invalidates: [listAccountsContract, listRecordsContract] });
  const actionKey = useActionKey();
  const [done, setDone] = useState<Done | null>(null);

  // The amount's limits depend on the source and the asset chosen: the schema reads them when it checks.
  const limits = useRef<AmountLimits>({ scale: scaleOf('USDT') });
  const schema = useMemo(() => bodySchema(transferBetweenAccountsContract).safeExtend({ amount: amountField(() => limits.current) }), []);
  const form = useContractForm(schema, { defaultValues: { fromAccount: 'coin', toAccount: '', asset: 'USDT', amount: '' } satisfies TransferValues as never });
  const { errors, isSubmitted } = form.formState;
  const [from, to, asset] = form.watch(['fromAccount', 'toAccount', 'asset']) as [AccountKind, AccountKind | '', AssetCode];
  const available = balanceOf(accounts, from, asset)?.available;
  const scale = scaleOf(asset, accounts ?? undefined);
  limits.current = { scale, available };

  /** A change makes the last result and refusal out of date. */
  function edited() {
    setDone(null);
    form.clearErrors('root');
  }

  function set(name: keyof TransferValues, value: string) {
    form.setValue(name, value as never, { shouldValidate: isSubmitted, shouldDirty: true });
    edited();
  }

  const submit = form.handleSubmit(async (body) => {
    try {
      const answer = await transfer.mutateAsync({ body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
      actionKey.settle();
      setDone({ amount: body.amount, asset: body.asset, from: answer.from, to: answer.to });
      form.reset({ ...form.getValues(), amount: '' });
    } catch (error) {
      actionKey.settle(error);
      // "Insufficient balance" and the like stand above the form; a refused amount stands on it.
      applyRefusal(form, error, { fieldErrors: { WRONG_AMOUNT: 'amount' } });
    }
  });

  const kindOptions = offeredAccountKinds(accounts).map((kind) => ({ value: kind, label: t(accountKindKeys[kind]) }));

  return (
    <>
      {failed && <LoadFailedNotice onRetry={reload} />}
      {done && (
        <Card className="result-card">
          <Notice testId="transfer-result">
            {t('web.transfer.done', { from: t(accountKindKeys[done.from.kind]), to: t(accountKindKeys[done.to.kind]) })}{' '}
            <Amount value={done.amount} unit={done.asset} />
          </Notice>
          <dl className="facts">
            <div>
              <dt>{t('web.transfer.nowIn', { account: t(accountKindKeys[done.from.kind]) })}</dt>
              <dd>
                <Amount value={done.from.available} unit={done.asset} testId="transfer-result-from" />
              </dd>
            </div>
            <div>
              <dt>{t('web.transfer.nowIn', { account: t(accountKindKeys[done.to.kind]) })}</dt>
              <dd>
                <Amount value={done.to.available} unit={done.asset} testId="transfer-result-to" />
              </dd>
            </div>
          </dl>
          <Link to="/assets" className="btn btn-secondary btn-block">
            {t('web.transfer.backToAssets')}
          </Link>
        </Card>
      )}
      <form className="card form-card" onSubmit={submit} noValidate>
        <FormError form={form} />
        <SelectField
          label={t('web.transfer.from')}
          value={from}
          options={kindOptions}
          testId="transfer-from"
          onChange={(value) => {
            set('fromAccount', value);
            if (value === to) set('toAccount', '');
          }}
        />
        <div className="transfer-direction">
          <Button
            variant="ghost"
            className="btn-small"
            aria-label={t('web.transfer.switch')}
            disabled={to === ''}
            data-testid="transfer-switch"
            onClick={() => {
              if (to === '') return;
              set('toAccount', from);
              set('fromAccount', to);
            }}
          >
            <SwapVerticalIcon />
          </Button>
        </div>
        <Controller
          control={form.control}
          name="toAccount"
          render={({ field, fieldState }) => (
            <SelectField
              label={t('web.transfer.to')}
              name={field.name}
              value={field.value}
              placeholder={t('web.transfer.choose')}
              options={kindOptions.map((option) => ({ ...option, disabled: option.value === from }))}
              testId="transfer-to"
              error={errorText(fieldState.error, { required: t('web.transfer.targetRequired') })}
              onChange={(value) => {
                field.onChange(value);
                edited();
              }}
            />
          )}
        />
        <SelectField
          label={t('web.transfer.currency')}
          value={asset}
          options={assetCodes.map((code) => ({ value: code, label: code }))}
          testId="transfer-asset"
          onChange={(value) => set('asset', value)}
        />
        <div className="amount-field">
          <TextField
            label={t('web.transfer.amount')}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('web.transfer.amountPlaceholder')}
            maxLength={40}
            data-testid="transfer-amount"
            {...form.register('amount', { onChange: edited })}
            error={errorText(errors.amount, { required: t('web.transfer.amountRequired'), asset, scale })}
          />
          <AvailableWithAll available={available} asset={asset} testIdPrefix="transfer" onAll={(all) => set('amount', all)} />
        </div>
        <dl className="facts">
          <div>
            <dt>{t('web.transfer.fee')}</dt>
            <dd data-testid="transfer-fee">{t('web.transfer.free')}</dd>
          </div>
        </dl>
        <Button type="submit" block busy={transfer.isPending} data-testid="transfer-submit">
          {t('web.transfer.submit')}
        </Button>
      </form>
    </>
  );
}
