import {
  assetCodeSchema,
  correctionHouseAccounts,
  correctionUserAccounts,
  listCorrectionsContract,
  listMerchantsContract,
  type ProposeCorrectionBody,
  proposeCorrectionBody,
  proposeCorrectionContract,
  type StaffCorrection,
} from '@keel/contracts';
import type { ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import type { z } from 'zod';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { emptyAsUndefined, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractMutation, useContractQuery } from '../../shared/queries.ts';
import { proposalRefusal } from './correction-problems.ts';

type FormValues = z.input<typeof proposeCorrectionBody>;

/** The form's own sentences where the rule's generic one says too little. */
const messages = {
  target: { '*': fieldMessage('admin.corrections.problem.target') },
  merchantId: { '*': fieldMessage('admin.corrections.problem.merchant') },
  amount: { '*': fieldMessage('admin.corrections.problem.amount') },
  reason: { too_small: fieldMessage('admin.corrections.problem.reason') },
};

/** A new proposal's starting values: a user's coin account in USDT. */
const blank: FormValues = {
  target: 'user',
  userId: '',
  account: 'coin',
  houseAccount: 'earn_treasury',
  merchantId: '',
  asset: 'USDT',
  amount: '',
  reason: '',
  reference: '',
};

/**
 * "Propose a correction" (issue 22, ADR 0039), checked by the contract's `proposeCorrectionBody`:
 * a user's account (the UID and the account kind) or a house account, the asset, the signed amount
 * (negative takes money back), the reason the user reads and an optional reference. The fields of
 * the other target are not part of the form while hidden (`shouldUnregister`), so the body names
 * one target only, as the contract asks. Nothing moves until a different member approves it; the
 * server's refusals are put on their field in words (`correction-problems.ts`).
 */
export function CorrectionForm({ adminAbove, onClose, onProposed }: { adminAbove: string | undefined; onClose: () => void; onProposed: (correction: StaffCorrection) => void }) {
  const { t } = useI18n();
  const form = useContractForm(proposeCorrectionBody, { defaultValues: blank, shouldUnregister: true, messages });
  const { errors } = form.formState;
  const target = form.watch('target');
  const houseAccount = form.watch('houseAccount');
  // A merchant's float (issue 19): the merchant is picked from the list of merchants and their floats.
  const merchants = useContractQuery(listMerchantsContract, undefined, { enabled: target === 'house' && houseAccount === 'merchant_float', staleTime: 0 });
  const propose = useContractMutation(proposeCorrectionContract, { invalidates: [listCorrectionsContract], onSuccess: onProposed });
  const refusal = proposalRefusal(propose.error);
  const title = t('admin.corrections.form.title');

  const submit = form.handleSubmit((body: ProposeCorrectionBody) =>
    propose.mutate(
      { body },
      {
        onError: (error) => {
          const placed = proposalRefusal(error);
          if (placed) form.setError(placed.field, { type: 'server', message: fieldMessage(placed.key, placed.vars) }, { shouldFocus: true });
        },
      },
    ),
  );

  type Named = 'userId' | 'account' | 'houseAccount' | 'merchantId' | 'asset' | 'amount' | 'reason' | 'reference';
  /** A labelled input with its hint and its error, the error announced and named by aria-describedby. */
  const field = (name: Named, label: string, input: ReactNode, hint?: string) => (
    <div className="form-field">
      <label htmlFor={`correction-${name}`}>{label}</label>
      {input}
      {hint && (
        <p className="muted hint" id={`correction-${name}-hint`}>
          {hint}
        </p>
      )}
      <FieldErrorText error={errors[name] as FieldError | undefined} id={`correction-${name}-error`} />
    </div>
  );
  const described = (name: Named, hint = false) => ({
    id: `correction-${name}`,
    'aria-describedby': hint ? `correction-${name}-hint correction-${name}-error` : `correction-${name}-error`,
    'aria-invalid': errors[name] ? true : undefined,
  });

  return (
    <section className="card detail" aria-label={title} data-testid="correction-form">
      <h3>{title}</h3>
      <p className="notice" data-testid="correction-form-rule">
        {adminAbove ? t('admin.corrections.rule', { limit: adminAbove }) : t('admin.corrections.form.note')}
      </p>
      <form onSubmit={submit} noValidate>
        <fieldset aria-describedby="correction-target-error">
          <legend>{t('admin.corrections.form.target')}</legend>
          <div className="row start">
            <label className="check">
              <input type="radio" value="user" {...form.register('target')} />
              {t('admin.corrections.form.targetUser')}
            </label>
            <label className="check">
              <input type="radio" value="house" {...form.register('target')} />
              {t('admin.corrections.form.targetHouse')}
            </label>
          </div>
          <FieldErrorText error={errors.target} id="correction-target-error" />
        </fieldset>
        <div className="form-grid">
          {target === 'user' ? (
            <>
              {field(
                'userId',
                t('admin.corrections.form.userId'),
                <input inputMode="numeric" autoComplete="off" maxLength={19} required {...described('userId')} {...form.register('userId', { setValueAs: emptyAsUndefined })} />,
              )}
              {field(
                'account',
                t('admin.corrections.form.account'),
                <select {...described('account')} {...form.register('account')}>
                  {correctionUserAccounts.map((kind) => (
                    <option key={kind} value={kind}>
                      {t(`admin.corrections.account.${kind}`)}
                    </option>
                  ))}
                </select>,
              )}
            </>
          ) : (
            <>
              {field(
                'houseAccount',
                t('admin.corrections.form.houseAccount'),
                <select {...described('houseAccount', true)} {...form.register('houseAccount')} data-testid="correction-house-account">
                  {correctionHouseAccounts.map((house) => (
                    <option key={house} value={house}>
                      {t(`admin.corrections.house.${house}`)}
                    </option>
                  ))}
                </select>,
                t('admin.corrections.form.houseHint'),
              )}
              {houseAccount === 'merchant_float' &&
                field(
                  'merchantId',
                  t('admin.corrections.form.merchant'),
                  <select
                    required
                    {...described('merchantId', true)}
                    {...form.register('merchantId', { setValueAs: emptyAsUndefined })}
                    data-testid="correction-merchant"
                    aria-busy={merchants.isPending}
                  >
                    <option value="">{t(merchants.isPending ? 'admin.loading' : 'admin.corrections.form.merchantChoose')}</option>
                    {merchants.data?.items.map((merchant) => (
                      <option key={merchant.merchantId} value={merchant.merchantId}>
                        {t('admin.corrections.form.merchantOption', {
                          name: merchant.displayName,
                          staff: merchant.staffUsername,
                          available: merchant.floatAvailable,
                          held: merchant.floatHeld,
                        })}
                      </option>
                    ))}
                  </select>,
                  merchants.data?.items.length === 0 ? t('admin.corrections.form.merchantNone') : t('admin.corrections.form.merchantHint'),
                )}
              <ErrorAlert error={merchants.error} />
            </>
          )}
          {field(
            'asset',
            t('admin.corrections.form.asset'),
            <select {...described('asset')} {...form.register('asset')}>
              {assetCodeSchema.options.map((asset) => (
                <option key={asset} value={asset}>
                  {asset}
                </option>
              ))}
            </select>,
          )}
          {field(
            'amount',
            t('admin.corrections.form.amount'),
            <input inputMode="decimal" autoComplete="off" dir="ltr" required {...described('amount', true)} {...form.register('amount')} />,
            t('admin.corrections.form.amountHint'),
          )}
          {field(
            'reference',
            t('admin.corrections.form.reference'),
            <input maxLength={100} autoComplete="off" {...described('reference', true)} {...form.register('reference', { setValueAs: emptyAsUndefined })} />,
            t('admin.corrections.form.referenceHint'),
          )}
        </div>
        {field(
          'reason',
          t('admin.corrections.form.reason'),
          <textarea maxLength={500} required {...described('reason', true)} {...form.register('reason')} />,
          t('admin.corrections.form.reasonHint'),
        )}
        <ErrorAlert error={refusal ? null : propose.error} />
        {refusal && <ErrorAlert message={t('admin.corrections.form.refusedOnField')} />}
        <div className="row">
          <button type="button" className="secondary" onClick={onClose} disabled={propose.isPending}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" disabled={propose.isPending}>
            {t('admin.corrections.form.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
