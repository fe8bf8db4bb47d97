import {
  ApiError,
  type ContractData,
  errorCatalogue,
  errorKeyFromMsg,
  findTransferRecipientContract,
  listAccountsContract,
  listRecordsContract,
  listUserTransfersContract,
  paymentPasswordSchema,
  transferToUserContract,
  walletOverviewContract,
} from '@keel/contracts';
import { USER_TRANSFER_FEE_PERCENT } from '@keel/domain';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, useContractForm } from '../../shared/forms/index.ts';
import { fieldTextOf } from '../../shared/forms/problems.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Notice, SelectField, TextField } from '../../shared/ui/components.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { Sheet } from '../options/Sheet.tsx';
import { Fact, type Refused, RefusalNotice, refusedBy, useRefusalFormat, useWalletOverview } from '../wallet/WalletParts.tsx';
import { WithdrawRules } from '../wallet/WithdrawRules.tsx';
import { type AssetCode, assetCodes, balanceOf, scaleOf } from './accounts.ts';
import { type AmountLimits, amountField, amountProblem } from './amount-field.ts';
import { AvailableWithAll } from './AvailableWithAll.tsx';
import { useAccounts } from './useAccounts.ts';
import { useMoneyErrorText } from './useMoneyErrorText.ts';
import {
  maxUserTransfer,
  percentText,
  recipientProblemOf,
  recipientQuery,
  type UserTransferFigures,
  userTransferFee,
  userTransferFigures,
} from './user-transfer.ts';
import '../options/options.css';
import './user-transfer.css';

type Recipient = ContractData<typeof findTransferRecipientContract>;
type Sent = ContractData<typeof transferToUserContract>;
type TransferBody = { to: string; asset: AssetCode; amount: string; paymentPassword: string };

/** The form's values as typed. */
interface UserTransferValues {
  to: string;
  asset: AssetCode;
  amount: string;
  paymentPassword: string;
}

/** What the confirmation shows and, once confirmed, sends (to the recipient's UID, the one the user saw). */
interface Pending {
  body: TransferBody;
  recipient: Recipient;
  figures: UserTransferFigures;
}

/** The form's own rule on the recipient field: it must have been looked up (the user sees whom they pay). */
const FIND_FIRST = 'userTransfer:findFirst';
const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, 6);
/** Refusals of the transfer that belong to a field of the form (the rest read as the withdrawal form's). */
const FIELD_REFUSALS: readonly string[] = ['PARAMETER_ERROR', 'WRONG_AMOUNT', 'RECORD_NOT_FOUND', 'CANNOT_TRANSFER_TO_SELF'];

/**
 * A user as the sender sees them: the masked public name and "UID n", each isolated so neither
 * reorders the other in right-to-left text (the name may be in any script; "UID n" reads left to
 * right as one piece).
 */
function useRecipientLine() {
  const { t } = useI18n();
  return (recipient: Recipient) =>
    t('web.userTransfer.recipientLine', { name: `\u2068${recipient.name}\u2069`, uid: `\u2066${t('web.userTransfer.uid', { uid: recipient.uid })}\u2069` });
}

/**
 * /assets/transfer?to=user: sends an asset from the coin account to another user (issue 19, ADR
 * 0042). The recipient is named by username or UID and looked up first ("Find"), so the user sees
 * the masked name and UID of whom they pay; the amount is checked against the asset's scale and
 * the coin balance with the fee on top (`amountField` with `feeFor`); the fee (0.10 %, rounded up)
 * and the total are computed live on bigint minor units by the domain's rule. Submitting opens a
 * confirmation naming the recipient and the three figures; confirming posts with the payment
 * password under the action's idempotency key. Money sent to another user leaves the user's
 * control like a withdrawal: the same published rules judge it (shown below the form, with where
 * the user stands today) and a refusal reads as the withdrawal form's do.
 */
export function UserTransferForm() {
  const { t, tServer, locale } = useI18n();
  const errorText = useMoneyErrorText();
  const recipientLine = useRecipientLine();
  const format = useRefusalFormat();
  const overview = useWalletOverview();
  const { accounts, failed: accountsFailed, reload: reloadAccounts } = useAccounts();
  // The lookup is a deliberate, rate-limited step ("Find"), never repeated behind the user's back
  // (on focus or reconnect): a mutation of the read contract, not a cached query.
  const lookup = useContractMutation(findTransferRecipientContract);
  // A transfer changes the coin balance, adds a record, joins the transfers list and counts in the
  // day's withdrawal count and limit (the overview's standing).
  const transfer = useContractMutation(transferToUserContract, {
    invalidates: [listAccountsContract, listRecordsContract, listUserTransfersContract, walletOverviewContract],
  });
  const actionKey = useActionKey();
  const now = useNow(true, 30_000);
  const [refused, setRefused] = useState<Refused | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState<Sent | null>(null);

  // The amount's limits follow the asset and the balance on screen: the schema reads them when it checks.
  const limits = useRef<AmountLimits>({ scale: scaleOf('USDT') });
  const schema = useMemo(
    () => bodySchema(transferToUserContract).safeExtend({ amount: amountField(() => limits.current), paymentPassword: paymentPasswordSchema }),
    [],
  );
  const form = useContractForm(schema, { defaultValues: { to: '', asset: 'USDT', amount: '', paymentPassword: '' } satisfies UserTransferValues as never });
  const { errors, isSubmitted } = form.formState;
  const [typedTo, asset, amount] = form.watch(['to', 'asset', 'amount']) as [string, AssetCode, string];
  const scale = scaleOf(asset, accounts ?? undefined);
  const available = accounts ? (balanceOf(accounts, 'coin', asset)?.available ?? '0') : undefined;
  limits.current = { scale, available, feeFor: (typed) => userTransferFee(typed, scale) };

  // The lookup counts only for the text it was made for: editing the recipient asks again.
  const lookedUpFor = lookup.variables?.query?.to;
  const lookupIsCurrent = lookedUpFor !== undefined && lookedUpFor === recipientQuery(typedTo);
  const recipient = lookupIsCurrent && lookup.isSuccess ? lookup.data : null;
  const lookupError = lookupIsCurrent && lookup.isError && !isSessionError(lookup.error) ? lookup.error : null;

  // The figures as typed, and the one problem worth saying before the user submits (amount + fee
  // above the balance); the form's own check runs on submit.
  const typedAmount = normaliseAmountInput(amount);
  const figures = typedAmount === '' ? null : userTransferFigures(typedAmount, scale);
  const liveProblem = typedAmount === '' ? null : amountProblem(typedAmount, limits.current);
  const feePercent = percentText(overview.data?.rules.userTransferFeePercent ?? USER_TRANSFER_FEE_PERCENT, locale);
  const feeLabel = t('web.userTransfer.fee', { percent: feePercent });
  const amountWords = { required: t('web.transfer.amountRequired'), asset, scale, fee: figures ? format.amount(figures.fee, asset) : '' };
  const amountText = errors.amount
    ? errorText(errors.amount, amountWords)
    : liveProblem === 'aboveAvailableWithFee'
      ? errorText({ message: `amount:${liveProblem}` }, amountWords)
      : undefined;

  /** A refusal of the lookup (or of the transfer, about the recipient) in the form's words. */
  function recipientRefusalText(message: string, data: unknown): string {
    switch (recipientProblemOf(message)) {
      case 'notFound':
        return t('web.userTransfer.notFound');
      case 'tooManyRequests': {
        const seconds = (data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
        return typeof seconds === 'number' && seconds > 0
          ? `${tServer(message)}. ${t('web.withdraw.refusal.retry', { seconds: Math.ceil(seconds) })}`
          : tServer(message);
      }
      default:
        return tServer(message);
    }
  }

  function recipientFieldText(): string | undefined {
    const error = errors.to;
    if (error?.message === FIND_FIRST) return t('web.userTransfer.findFirst');
    if (error?.message) {
      const text = fieldTextOf(error.message);
      if ('serverMsg' in text) return recipientRefusalText(text.serverMsg, null);
      return errorText(error, { required: t('web.userTransfer.recipientRequired') });
    }
    if (lookupError) return lookupError instanceof ApiError ? recipientRefusalText(lookupError.message, lookupError.data) : tServer(errorCatalogue.SYSTEM_ERROR.msg);
    return undefined;
  }

  async function find() {
    setRefused(null);
    if (!(await form.trigger('to'))) return;
    form.clearErrors('to');
    const to = recipientQuery(form.getValues('to'));
    try {
      await lookup.mutateAsync({ query: { to } });
    } catch {
      // Shown on the field (lookupError); a session error is the client's to handle.
    }
  }

  /** A change makes the last refusal out of date. */
  function edited() {
    setRefused(null);
    form.clearErrors('root');
  }

  const submit = form.handleSubmit((values) => {
    setRefused(null);
    if (!recipient) {
      form.setError('to', { type: 'own', message: FIND_FIRST }, { shouldFocus: true });
      return;
    }
    const shown = userTransferFigures(values.amount, scale);
    // The schema has checked the amount at this scale.
    if (!shown) return;
    setPending({ body: { to: recipient.uid, asset: values.asset, amount: values.amount, paymentPassword: values.paymentPassword }, recipient, figures: shown });
  });

  async function send(confirmed: Pending) {
    try {
      const answer = await transfer.mutateAsync({ body: confirmed.body, idempotencyKey: actionKey.keyFor(JSON.stringify(confirmed.body)) });
      actionKey.settle();
      setPending(null);
      setDone(answer);
      form.reset({ to: '', asset: confirmed.body.asset, amount: '', paymentPassword: '' });
      lookup.reset();
    } catch (error) {
      actionKey.settle(error);
      setPending(null);
      if (isSessionError(error)) return;
      const key = error instanceof ApiError ? errorKeyFromMsg(error.message) : undefined;
      if (key !== undefined && FIELD_REFUSALS.includes(key)) {
        // About the recipient or the amount: said on that field; the recipient is looked up again.
        if (key === 'RECORD_NOT_FOUND' || key === 'CANNOT_TRANSFER_TO_SELF') lookup.reset();
        applyRefusal(form, error, { fieldErrors: { WRONG_AMOUNT: 'amount', RECORD_NOT_FOUND: 'to', CANNOT_TRANSFER_TO_SELF: 'to' } });
        return;
      }
      // The withdrawal rules, the balance, the payment password: named as the withdrawal form names them.
      setRefused(refusedBy(error));
      void overview.refetch();
      if (key === 'WRONG_PAYMENT_PASSWORD' || key === 'PAYMENT_PASSWORD_LOCKED') form.setValue('paymentPassword', '');
    }
  }

  const standing = overview.data?.standing;
  const someLoadFailed = loadFailed(overview) || accountsFailed;
  const rules = overview.data && <WithdrawRules rules={overview.data.rules} standing={overview.data.standing} now={now} />;

  if (done) {
    return (
      <>
        <UserTransferDone
          sent={done}
          feeLabel={feeLabel}
          onAnother={() => {
            setDone(null);
            transfer.reset();
          }}
        />
        {rules}
      </>
    );
  }

  return (
    <>
      {someLoadFailed && (
        <LoadFailedNotice
          onRetry={() => {
            void overview.refetch();
            reloadAccounts();
          }}
        />
      )}
      {standing && !standing.paymentPasswordSet && (
        <Notice tone="warning" title={tServer(errorCatalogue.PAYMENT_PASSWORD_NOT_SET.msg)} testId="user-transfer-no-paypassword">
          <p>{t('web.userTransfer.noPaymentPassword')}</p>
          <Link to="/person/setting/paypassword" className="btn btn-primary btn-small" data-testid="user-transfer-set-paypassword">
            {t('web.withdraw.setPaymentPassword')}
          </Link>
        </Notice>
      )}
      <form className="card form-card" onSubmit={submit} noValidate data-testid="user-transfer-form">
        <FormError form={form} />
        {refused && <RefusalNotice message={refused.message} data={refused.data} asset={asset} testId="user-transfer-refusal" />}
        <div className="user-transfer-recipient">
          <TextField
            label={t('web.userTransfer.recipient')}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={64}
            placeholder={t('web.userTransfer.recipientPlaceholder')}
            data-testid="user-transfer-to"
            {...form.register('to', {
              onChange: () => {
                edited();
                form.clearErrors('to');
              },
            })}
            onKeyDown={(event) => {
              // Enter looks the recipient up rather than submitting the whole form.
              if (event.key === 'Enter') {
                event.preventDefault();
                void find();
              }
            }}
            error={recipientFieldText()}
          />
          <div className="user-transfer-lookup">
            <Button variant="secondary" className="btn-small" busy={lookup.isPending} onClick={() => void find()} data-testid="user-transfer-find">
              {t('web.userTransfer.find')}
            </Button>
            <div role="status" className="user-transfer-found">
              {recipient && (
                <p data-testid="user-transfer-recipient">
                  <span className="muted">{t('web.userTransfer.found')}</span> <strong>{recipientLine(recipient)}</strong>
                </p>
              )}
            </div>
          </div>
        </div>
        <SelectField
          label={t('web.transfer.currency')}
          value={asset}
          options={assetCodes.map((code) => ({ value: code, label: code }))}
          testId="user-transfer-asset"
          onChange={(value) => {
            form.setValue('asset', value as AssetCode, { shouldDirty: true });
            if (isSubmitted) void form.trigger('amount');
            edited();
          }}
        />
        <div className="amount-field">
          <TextField
            label={t('web.transfer.amount')}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('web.transfer.amountPlaceholder')}
            maxLength={40}
            data-testid="user-transfer-amount"
            {...form.register('amount', { onChange: edited })}
            error={amountText}
          />
          <AvailableWithAll
            available={available}
            asset={asset}
            testIdPrefix="user-transfer"
            onAll={(all) => {
              form.setValue('amount', maxUserTransfer(all, scale) ?? '0', { shouldValidate: isSubmitted, shouldDirty: true });
              edited();
            }}
          />
        </div>
        <dl className="facts" data-testid="user-transfer-figures">
          <Fact label={t('web.userTransfer.receives')} testId="user-transfer-receives">
            {figures ? <Amount value={figures.amount} unit={asset} /> : '—'}
          </Fact>
          <Fact label={feeLabel} testId="user-transfer-fee">
            {figures ? <Amount value={figures.fee} unit={asset} /> : '—'}
          </Fact>
          <Fact label={t('web.userTransfer.total')} testId="user-transfer-total">
            {figures ? <Amount value={figures.total} unit={asset} /> : '—'}
          </Fact>
        </dl>
        <p className="field-hint" data-testid="user-transfer-note">
          {t('web.userTransfer.note')}
        </p>
        <TextField
          label={t('web.withdraw.paymentPassword')}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          hint={t('web.settings.sixDigitsHint')}
          data-testid="user-transfer-paypassword"
          {...form.register('paymentPassword', {
            onChange: (event: { target: HTMLInputElement }) => {
              // Only digits can be typed (a payment password is six of them).
              const digits = digitsOnly(event.target.value);
              if (digits !== event.target.value) form.setValue('paymentPassword', digits);
              setRefused(null);
            },
          })}
          error={
            refused && (errorKeyFromMsg(refused.message) === 'WRONG_PAYMENT_PASSWORD' || errorKeyFromMsg(refused.message) === 'PAYMENT_PASSWORD_LOCKED')
              ? tServer(refused.message)
              : errorText(errors.paymentPassword)
          }
        />
        <Button type="submit" block data-testid="user-transfer-submit">
          {t('web.userTransfer.submit')}
        </Button>
      </form>
      {pending && (
        <Sheet
          title={t('web.userTransfer.confirm.title')}
          onClose={() => {
            if (!transfer.isPending) setPending(null);
          }}
          testId="user-transfer-confirm"
        >
          <dl className="facts">
            <Fact label={t('web.userTransfer.confirm.to')} testId="user-transfer-confirm-recipient">
              {recipientLine(pending.recipient)}
            </Fact>
            <Fact label={t('web.userTransfer.receives')} testId="user-transfer-confirm-amount">
              <Amount value={pending.figures.amount} unit={pending.body.asset} />
            </Fact>
            <Fact label={feeLabel} testId="user-transfer-confirm-fee">
              <Amount value={pending.figures.fee} unit={pending.body.asset} />
            </Fact>
            <Fact label={t('web.userTransfer.total')} testId="user-transfer-confirm-total">
              <Amount value={pending.figures.total} unit={pending.body.asset} />
            </Fact>
          </dl>
          <p className="field-hint">{t('web.userTransfer.confirm.final')}</p>
          <div className="options-sheet-actions">
            <Button variant="secondary" disabled={transfer.isPending} onClick={() => setPending(null)} data-testid="user-transfer-confirm-back">
              {t('web.userTransfer.confirm.back')}
            </Button>
            <Button busy={transfer.isPending} onClick={() => void send(pending)} data-testid="user-transfer-confirm-send">
              {t('web.userTransfer.confirm.send')}
            </Button>
          </div>
        </Sheet>
      )}
      {rules}
    </>
  );
}

/** After a transfer: whom it went to, the three figures, the coin balance now, and the way to the records. */
function UserTransferDone({ sent, feeLabel, onAnother }: { sent: Sent; feeLabel: string; onAnother: () => void }) {
  const { t } = useI18n();
  const recipientLine = useRecipientLine();
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that had the focus is gone: the result takes it, so a screen reader reads it next.
  useEffect(() => heading.current?.focus(), []);
  const { transfer, balance } = sent;
  return (
    <Card className="result-card">
      <h2 className="card-title" ref={heading} tabIndex={-1}>
        {t('web.userTransfer.doneTitle')}
      </h2>
      <Notice testId="user-transfer-done">{t('web.userTransfer.done', { recipient: recipientLine(transfer.counterparty) })}</Notice>
      <dl className="facts">
        <Fact label={t('web.userTransfer.received')} testId="user-transfer-done-amount">
          <Amount value={transfer.amount} unit={transfer.asset} />
        </Fact>
        <Fact label={feeLabel} testId="user-transfer-done-fee">
          <Amount value={transfer.fee} unit={transfer.asset} />
        </Fact>
        <Fact label={t('web.userTransfer.total')} testId="user-transfer-done-total">
          <Amount value={transfer.total} unit={transfer.asset} />
        </Fact>
        <Fact label={t('web.userTransfer.nowAvailable')} testId="user-transfer-done-balance">
          <Amount value={balance.available} unit={balance.asset} />
        </Fact>
      </dl>
      <Link to="/assets/records" className="btn btn-secondary btn-block" data-testid="user-transfer-to-records">
        {t('web.userTransfer.toRecords')}
      </Link>
      <Button variant="ghost" block onClick={onAnother} data-testid="user-transfer-another">
        {t('web.userTransfer.another')}
      </Button>
    </Card>
  );
}
