import { ApiError, transferBetweenAccountsContract } from '@keel/contracts';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { api, isSessionError } from '../../shared/api/client.ts';
import { checkAmountInput, normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { SwapVerticalIcon } from '../../shared/ui/icons.tsx';
import { type AccountBalance, type AccountKind, accountKindKeys, accountKinds, type AssetCode, assetCodes, balanceOf, scaleOf } from './accounts.ts';
import { amountProblemText } from './amount-problems.ts';
import { useAccounts } from './useAccounts.ts';
import { AvailableWithAll } from './AvailableWithAll.tsx';

interface Done {
  amount: string;
  asset: AssetCode;
  from: AccountBalance;
  to: AccountBalance;
}

const isKind = (value: string): value is AccountKind => (accountKinds as readonly string[]).includes(value);
const isAsset = (value: string): value is AssetCode => (assetCodes as readonly string[]).includes(value);

/**
 * /assets/transfer: moves an asset between two of the user's own accounts (free; decisions page).
 * The target account is a choice the user must make (spec section 5: "a transfer needs a target
 * account").
 */
export function TransferForm() {
  const { t, tServer } = useI18n();
  const { accounts, failed, reload, update } = useAccounts();
  const actionKey = useActionKey();
  const [from, setFrom] = useState<AccountKind>('coin');
  const [to, setTo] = useState<AccountKind | ''>('');
  const [asset, setAsset] = useState<AssetCode>('USDT');
  const [amount, setAmount] = useState('');
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);

  const available = balanceOf(accounts, from, asset)?.available;
  const scale = scaleOf(asset, accounts ?? undefined);
  const amountProblem = checkAmountInput(amount, scale, available);
  const targetProblem = to === '' ? t('web.transfer.targetRequired') : to === from ? t('web.transfer.sameAccount') : undefined;

  function edited() {
    setDone(null);
    setFormError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (amountProblem || targetProblem || to === '') return;
    const body = { fromAccount: from, toAccount: to, asset, amount: normaliseAmountInput(amount) };
    setBusy(true);
    setFormError(null);
    try {
      const answer = await api(transferBetweenAccountsContract, { body, idempotencyKey: actionKey.keyFor(JSON.stringify(body)) });
      actionKey.settle();
      update([answer.from, answer.to]);
      setDone({ amount: body.amount, asset, from: answer.from, to: answer.to });
      setAmount('');
      setChecked(false);
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return;
      setFormError(error instanceof ApiError ? tServer(error.message) : t('web.common.loadFailed'));
    } finally {
      setBusy(false);
    }
  }

  const kindOptions = accountKinds.map((kind) => ({ value: kind, label: t(accountKindKeys[kind]) }));

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
        {formError && (
          <Notice tone="error" testId="form-error">
            {formError}
          </Notice>
        )}
        <SelectField
          label={t('web.transfer.from')}
          value={from}
          options={kindOptions}
          testId="transfer-from"
          onChange={(value) => {
            if (!isKind(value)) return;
            setFrom(value);
            if (value === to) setTo('');
            edited();
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
              setTo(from);
              setFrom(to);
              edited();
            }}
          >
            <SwapVerticalIcon />
          </Button>
        </div>
        <SelectField
          label={t('web.transfer.to')}
          value={to}
          placeholder={t('web.transfer.choose')}
          options={kindOptions.map((option) => ({ ...option, disabled: option.value === from }))}
          testId="transfer-to"
          error={checked ? targetProblem : undefined}
          onChange={(value) => {
            if (!isKind(value)) return;
            setTo(value);
            edited();
          }}
        />
        <SelectField
          label={t('web.transfer.currency')}
          value={asset}
          options={assetCodes.map((code) => ({ value: code, label: code }))}
          testId="transfer-asset"
          onChange={(value) => {
            if (!isAsset(value)) return;
            setAsset(value);
            edited();
          }}
        />
        <div className="amount-field">
          <TextField
            label={t('web.transfer.amount')}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('web.transfer.amountPlaceholder')}
            value={amount}
            maxLength={40}
            data-testid="transfer-amount"
            onChange={(event) => {
              setAmount(event.target.value);
              edited();
            }}
            error={
              checked ? amountProblemText(t, amountProblem, { asset, scale, requiredText: t('web.transfer.amountRequired') }) : undefined
            }
          />
          <AvailableWithAll
            available={available}
            asset={asset}
            testIdPrefix="transfer"
            onAll={(all) => {
              setAmount(all);
              edited();
            }}
          />
        </div>
        <dl className="facts">
          <div>
            <dt>{t('web.transfer.fee')}</dt>
            <dd data-testid="transfer-fee">{t('web.transfer.free')}</dd>
          </div>
        </dl>
        <Button type="submit" block busy={busy} data-testid="transfer-submit">
          {t('web.transfer.submit')}
        </Button>
      </form>
    </>
  );
}
