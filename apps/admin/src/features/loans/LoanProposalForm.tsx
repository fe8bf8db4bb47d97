import {
  ApiError,
  type LoanProductChange,
  type LoanProductProposal,
  listStaffLoanProductsContract,
  loanProductProposalSchema,
  proposeLoanProductChangeContract,
} from '@keel/contracts';
import type { ReactNode } from 'react';
import { type FieldError, useFieldArray } from 'react-hook-form';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { proposalRefusal } from './loan-problems.ts';
import { type StaffLoanProduct, shortPercent } from './loans-shared.tsx';

/** The assets a borrower may pledge (the contract's enum), in the order rows are offered. */
const collateralAssets = loanProductProposalSchema.shape.collateral.element.shape.asset.options;

/** The form's own sentences where the rule's generic one says too little. */
const messages = {
  name: { '*': fieldMessage('admin.form.required') },
  cycleDays: { '*': fieldMessage('admin.loans.problem.cycle') },
};

/** A new product's starting values: open, 30 days, BTC pledged at 65 %, warned at 80 %, liquidated at 90 %. */
const blank: LoanProductProposal = {
  name: '',
  cycleDays: 30,
  dailyRatePercent: '',
  minAmount: '',
  maxAmount: '',
  collateral: [{ asset: 'BTC', ltvPercent: '65' }],
  marginCallLtvPercent: '80',
  liquidationLtvPercent: '90',
  open: true,
};

/** A change starts from the product's terms as they are now. */
function fromProduct(product: StaffLoanProduct): LoanProductProposal {
  return {
    name: product.name,
    cycleDays: product.cycleDays,
    dailyRatePercent: shortPercent(product.dailyRatePercent),
    minAmount: product.minAmount,
    maxAmount: product.maxAmount,
    collateral: product.collateral.map((each) => ({ asset: each.asset as LoanProductProposal['collateral'][number]['asset'], ltvPercent: shortPercent(each.ltvPercent) })),
    marginCallLtvPercent: shortPercent(product.marginCallLtvPercent),
    liquidationLtvPercent: shortPercent(product.liquidationLtvPercent),
    open: product.open,
  };
}

/**
 * "Propose a loan product" (without `product`) or "Propose a change" to `product`, prefilled with
 * its terms: every field of the proposal, the collateral as rows (BTC, ETH or USDT, each with its
 * LTV). Nothing changes until another admin approves it; changed terms get a new terms version,
 * which only applications made after the approval accept. The server's refusals are shown on the
 * field they are about, in words (`loan-problems.ts`).
 */
export function LoanProposalForm({ product, onClose, onProposed }: { product?: StaffLoanProduct; onClose: () => void; onProposed: (change: LoanProductChange) => void }) {
  const { t } = useI18n();
  const form = useContractForm(loanProductProposalSchema, { defaultValues: product ? fromProduct(product) : blank, messages });
  const { errors } = form.formState;
  const rows = useFieldArray({ control: form.control, name: 'collateral' });
  const propose = useContractMutation(proposeLoanProductChangeContract, { invalidates: [listStaffLoanProductsContract], onSuccess: onProposed });
  const refusal = propose.error instanceof ApiError ? proposalRefusal(propose.error.data) : null;
  const title = product ? t('admin.loans.form.changeTitle', { name: product.name, id: product.id }) : t('admin.loans.form.newTitle');

  const submit = form.handleSubmit((proposal) =>
    propose.mutate(
      { body: { ...proposal, ...(product ? { productId: product.id } : {}) } },
      {
        onError: (error) => {
          const placed = error instanceof ApiError ? proposalRefusal(error.data) : null;
          if (placed) form.setError(placed.field, { type: 'server', message: fieldMessage(placed.key) }, { shouldFocus: true });
        },
      },
    ),
  );

  type Named = 'name' | 'cycleDays' | 'dailyRatePercent' | 'minAmount' | 'maxAmount' | 'marginCallLtvPercent' | 'liquidationLtvPercent';
  /** A labelled input with its hint and its error, the error announced and named by aria-describedby. */
  const field = (name: Named, label: string, input: ReactNode, hint?: string) => (
    <div className="form-field">
      <label htmlFor={`loan-${name}`}>{label}</label>
      {input}
      {hint && (
        <p className="muted hint" id={`loan-${name}-hint`}>
          {hint}
        </p>
      )}
      <FieldErrorText error={errors[name] as FieldError | undefined} id={`loan-${name}-error`} />
    </div>
  );
  const described = (name: Named) => ({ id: `loan-${name}`, 'aria-describedby': `loan-${name}-hint loan-${name}-error`, 'aria-invalid': errors[name] ? true : undefined });
  // The collateral as a whole (no row, an asset twice): the rule's message, or the server's.
  const collateralError = (errors.collateral?.root ?? (errors.collateral?.message ? errors.collateral : undefined)) as FieldError | undefined;
  const unused = collateralAssets.filter((asset) => !form.watch('collateral').some((row) => row.asset === asset));

  return (
    <section className="card detail" aria-label={title} data-testid="loan-proposal-form">
      <h3>{title}</h3>
      <p className="notice" data-testid="loan-proposal-note">
        {t(product ? 'admin.loans.form.changeNote' : 'admin.loans.form.newNote')}
      </p>
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          {field('name', t('admin.loans.products.col.name'), <input maxLength={80} autoComplete="off" required {...described('name')} {...form.register('name')} />)}
          {field(
            'cycleDays',
            t('admin.loans.form.cycleDays'),
            <input type="number" min={1} max={365} step={1} required {...described('cycleDays')} {...form.register('cycleDays', { valueAsNumber: true })} />,
            t('admin.loans.form.cycleDaysHint'),
          )}
          {field(
            'dailyRatePercent',
            t('admin.loans.form.dailyRate'),
            <input inputMode="decimal" autoComplete="off" required {...described('dailyRatePercent')} {...form.register('dailyRatePercent')} />,
            t('admin.loans.form.dailyRateHint'),
          )}
          {field('minAmount', t('admin.loans.form.minAmount'), <input inputMode="decimal" autoComplete="off" required {...described('minAmount')} {...form.register('minAmount')} />)}
          {field(
            'maxAmount',
            t('admin.loans.form.maxAmount'),
            <input inputMode="decimal" autoComplete="off" required {...described('maxAmount')} {...form.register('maxAmount')} />,
            t('admin.loans.form.amountHint'),
          )}
          {field(
            'marginCallLtvPercent',
            t('admin.loans.form.marginCall'),
            <input inputMode="decimal" autoComplete="off" required {...described('marginCallLtvPercent')} {...form.register('marginCallLtvPercent')} />,
          )}
          {field(
            'liquidationLtvPercent',
            t('admin.loans.form.liquidation'),
            <input inputMode="decimal" autoComplete="off" required {...described('liquidationLtvPercent')} {...form.register('liquidationLtvPercent')} />,
            t('admin.loans.form.ratiosHint'),
          )}
          <div className="form-field">
            <label className="check">
              <input type="checkbox" {...form.register('open')} />
              {t('admin.loans.form.open')}
            </label>
          </div>
        </div>
        <fieldset data-testid="loan-collateral-rows" aria-describedby="loan-collateral-hint loan-collateral-error">
          <legend>{t('admin.loans.form.collateral')}</legend>
          <p className="muted hint" id="loan-collateral-hint">
            {t('admin.loans.form.collateralHint')}
          </p>
          {rows.fields.map((row, index) => {
            const ltvError = errors.collateral?.[index]?.ltvPercent;
            return (
              <div key={row.id} className="row start" data-testid={`loan-collateral-row-${index}`}>
                <label>
                  {t('admin.loans.form.asset')}
                  <select {...form.register(`collateral.${index}.asset`)}>
                    {collateralAssets.map((asset) => (
                      <option key={asset} value={asset}>
                        {asset}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  {t('admin.loans.form.ltv')}
                  <input
                    inputMode="decimal"
                    autoComplete="off"
                    required
                    aria-invalid={ltvError ? true : undefined}
                    aria-describedby={`loan-collateral-${index}-error`}
                    {...form.register(`collateral.${index}.ltvPercent`)}
                  />
                </label>
                <button type="button" className="secondary" onClick={() => rows.remove(index)} disabled={rows.fields.length <= 1}>
                  {t('admin.loans.form.removeCollateral', { asset: form.watch(`collateral.${index}.asset`) })}
                </button>
                <FieldErrorText error={ltvError} id={`loan-collateral-${index}-error`} />
              </div>
            );
          })}
          <FieldErrorText error={collateralError} id="loan-collateral-error" />
          <button type="button" className="secondary" onClick={() => unused[0] && rows.append({ asset: unused[0], ltvPercent: '' })} disabled={unused.length === 0}>
            {t('admin.loans.form.addCollateral')}
          </button>
        </fieldset>
        <ErrorAlert error={refusal ? null : propose.error} />
        {refusal && <ErrorAlert message={t('admin.loans.form.refusedOnField')} />}
        <div className="row">
          <button type="button" className="secondary" onClick={onClose} disabled={propose.isPending}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" disabled={propose.isPending}>
            {t('admin.loans.form.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
