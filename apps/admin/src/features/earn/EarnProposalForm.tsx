import { ApiError, earnKinds, type EarnProductChange, listStaffEarnProductsContract, proposeEarnProductChangeContract } from '@keel/contracts';
import type { ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { bodyOf, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { proposalRefusal, type ProposalField } from './earn-problems.ts';
import type { StaffEarnProduct } from './earn-shared.tsx';

const proposalSchema = bodyOf(proposeEarnProductChangeContract);

/** The form's own sentences where the rule's generic one says too little. */
const messages = {
  name: { '*': fieldMessage('admin.form.required') },
  cycleDays: { '*': fieldMessage('admin.earn.problem.cycleDays') },
  payoutTimeUtc: { '*': fieldMessage('admin.earn.problem.payoutTime') },
};

/** A new product's starting values: open, no early redemption (so no penalty), paid at 00:00 UTC. */
const blank = {
  kind: 'lockup' as const,
  name: '',
  asset: 'USDT',
  cycleDays: 30,
  dailyRatePercent: '',
  penaltyRatePercent: '0',
  payoutTimeUtc: '00:00',
  earlyRedemption: false,
  minAmount: '',
  maxAmount: '',
  userQuota: '',
  totalQuota: '',
  open: true,
};

/** A change starts from the product's terms as they are now. */
function fromProduct(product: StaffEarnProduct) {
  return {
    productId: product.id,
    kind: product.kind,
    name: product.name,
    asset: product.asset,
    cycleDays: product.cycleDays,
    dailyRatePercent: product.dailyRatePercent,
    penaltyRatePercent: product.penaltyRatePercent,
    payoutTimeUtc: product.payoutTimeUtc,
    earlyRedemption: product.earlyRedemption,
    minAmount: product.minAmount,
    maxAmount: product.maxAmount,
    userQuota: product.userQuota,
    totalQuota: product.totalQuota,
    open: product.open,
  };
}

/**
 * "Propose a product" (without `product`) or "Propose a change" to `product`, prefilled with its
 * terms: every field of the proposal. Nothing changes until another admin approves it, and a
 * change reaches only subscriptions made after the approval. The server's refusals are shown on
 * the field they are about, in words (`earn-problems.ts`). A change cannot alter kind or asset:
 * they are shown, not asked.
 */
export function EarnProposalForm({ product, onClose, onProposed }: { product?: StaffEarnProduct; onClose: () => void; onProposed: (change: EarnProductChange) => void }) {
  const { t } = useI18n();
  const form = useContractForm(proposalSchema, { defaultValues: product ? fromProduct(product) : blank, messages });
  const { errors } = form.formState;
  const propose = useContractMutation(proposeEarnProductChangeContract, { invalidates: [listStaffEarnProductsContract], onSuccess: onProposed });
  const refusal = propose.error instanceof ApiError ? proposalRefusal(propose.error.data) : null;
  const title = product ? t('admin.earn.form.changeTitle', { name: product.name, id: product.id }) : t('admin.earn.form.newTitle');

  const submit = form.handleSubmit((body) =>
    propose.mutate(
      { body },
      {
        onError: (error) => {
          const placed = error instanceof ApiError ? proposalRefusal(error.data) : null;
          if (placed) form.setError(placed.field, { type: 'server', message: fieldMessage(placed.key) }, { shouldFocus: true });
        },
      },
    ),
  );

  /** A labelled input with its hint and its error, the error announced and named by aria-describedby. */
  const field = (name: ProposalField, label: string, input: ReactNode, hint?: string) => (
    <div className="form-field">
      <label htmlFor={`earn-${name}`}>{label}</label>
      {input}
      {hint && (
        <p className="muted hint" id={`earn-${name}-hint`}>
          {hint}
        </p>
      )}
      <FieldErrorText error={errors[name] as FieldError | undefined} id={`earn-${name}-error`} />
    </div>
  );
  const described = (name: ProposalField) => ({ id: `earn-${name}`, 'aria-describedby': `earn-${name}-hint earn-${name}-error`, 'aria-invalid': errors[name] ? true : undefined });

  return (
    <section className="card detail" aria-label={title} data-testid="earn-proposal-form">
      <h3>{title}</h3>
      <p className="notice" data-testid="earn-proposal-note">
        {t(product ? 'admin.earn.form.changeNote' : 'admin.earn.form.newNote')}
      </p>
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          {product ? (
            <>
              {field('kind', t('admin.earn.col.kind'), <output id="earn-kind" data-testid="earn-form-kind">{t(`admin.earn.kind.${product.kind}`)}</output>, t('admin.earn.form.fixedHint'))}
              {field('asset', t('admin.earn.col.asset'), <output id="earn-asset" data-testid="earn-form-asset">{product.asset}</output>, t('admin.earn.form.fixedHint'))}
            </>
          ) : (
            <>
              {field(
                'kind',
                t('admin.earn.col.kind'),
                <select {...described('kind')} {...form.register('kind')}>
                  {earnKinds.map((kind) => (
                    <option key={kind} value={kind}>
                      {t(`admin.earn.kind.${kind}`)}
                    </option>
                  ))}
                </select>,
              )}
              {field(
                'asset',
                t('admin.earn.col.asset'),
                <input maxLength={10} autoComplete="off" required {...described('asset')} {...form.register('asset', { setValueAs: (value: unknown) => String(value ?? '').trim().toUpperCase() })} />,
                t('admin.earn.form.assetHint'),
              )}
            </>
          )}
          {field('name', t('admin.earn.col.name'), <input maxLength={80} autoComplete="off" required {...described('name')} {...form.register('name')} />)}
          {field(
            'cycleDays',
            t('admin.earn.form.cycleDays'),
            <input type="number" min={1} max={3650} step={1} required {...described('cycleDays')} {...form.register('cycleDays', { valueAsNumber: true })} />,
            t('admin.earn.form.cycleDaysHint'),
          )}
          {field(
            'dailyRatePercent',
            t('admin.earn.form.dailyRate'),
            <input inputMode="decimal" autoComplete="off" required {...described('dailyRatePercent')} {...form.register('dailyRatePercent')} />,
            t('admin.earn.form.dailyRateHint'),
          )}
          {field(
            'payoutTimeUtc',
            t('admin.earn.form.payoutTime'),
            <input placeholder="00:00" maxLength={5} autoComplete="off" required {...described('payoutTimeUtc')} {...form.register('payoutTimeUtc')} />,
            t('admin.earn.form.payoutTimeHint'),
          )}
          <div className="form-field">
            <label className="check">
              <input type="checkbox" aria-describedby="earn-earlyRedemption-error" {...form.register('earlyRedemption')} />
              {t('admin.earn.form.earlyRedemption')}
            </label>
            <FieldErrorText error={errors.earlyRedemption} id="earn-earlyRedemption-error" />
          </div>
          {field(
            'penaltyRatePercent',
            t('admin.earn.form.penaltyRate'),
            <input inputMode="decimal" autoComplete="off" required {...described('penaltyRatePercent')} {...form.register('penaltyRatePercent')} />,
            t('admin.earn.form.penaltyRateHint'),
          )}
          {field('minAmount', t('admin.earn.form.minAmount'), <input inputMode="decimal" autoComplete="off" required {...described('minAmount')} {...form.register('minAmount')} />)}
          {field(
            'maxAmount',
            t('admin.earn.form.maxAmount'),
            <input inputMode="decimal" autoComplete="off" required {...described('maxAmount')} {...form.register('maxAmount')} />,
            t('admin.earn.form.amountHint'),
          )}
          {field(
            'userQuota',
            t('admin.earn.form.userQuota'),
            <input inputMode="decimal" autoComplete="off" required {...described('userQuota')} {...form.register('userQuota')} />,
            t('admin.earn.form.userQuotaHint'),
          )}
          {field(
            'totalQuota',
            t('admin.earn.form.totalQuota'),
            <input inputMode="decimal" autoComplete="off" required {...described('totalQuota')} {...form.register('totalQuota')} />,
            t('admin.earn.form.totalQuotaHint'),
          )}
          <div className="form-field">
            <label className="check">
              <input type="checkbox" aria-describedby="earn-open-error" {...form.register('open')} />
              {t('admin.earn.form.open')}
            </label>
            <FieldErrorText error={errors.open} id="earn-open-error" />
          </div>
        </div>
        <ErrorAlert error={refusal ? null : propose.error} />
        {refusal && <ErrorAlert message={t('admin.earn.form.refusedOnField')} />}
        <div className="row">
          <button type="button" className="secondary" onClick={onClose} disabled={propose.isPending}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" disabled={propose.isPending}>
            {t('admin.earn.form.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
