import { listLoansContract, type LoanView, repayLoanContract } from '@keel/contracts';
import { useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useActionKey } from '../../shared/api/action-key.ts';
import { isSessionError } from '../../shared/api/client.ts';
import { useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { useContractForm } from '../../shared/forms/index.ts';
import { normaliseAmountInput } from '../../shared/format/decimal.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Amount } from '../../shared/ui/Amount.tsx';
import { Button, Card, LoadFailedNotice, Notice, Segmented, SelectField, TextField } from '../../shared/ui/components.tsx';
import { useMoneyErrorText } from '../assets/useMoneyErrorText.ts';
import { type Refused, refusedBy, useRefusalFormat } from '../wallet/WalletParts.tsx';
import { repaySplit } from './loan-figures.ts';
import { loanProblems, repayFormSchema } from './loan-form.ts';
import { describeLoanRefusal } from './loan-refusal.ts';
import { LoanFact, LoanPasswordSheet, LoanRefusalNotice, LoanSwitch, statusKeys, useLoanText } from './LoanParts.tsx';
import { loansChanged, useLoan, useLoansOverview } from './useLoans.ts';

type Pending = { full: boolean; amount: string };

/** The repayment form of one passed loan: full or a part, the split interest-first, the payment password. */
function RepayForm({ loan, available, onDone }: { loan: LoanView; available: string | undefined; onDone: (answer: LoanView) => void }) {
  const { t } = useI18n();
  const text = useLoanText();
  const errorText = useMoneyErrorText();
  const format = useRefusalFormat();
  const actionKey = useActionKey();
  const [pending, setPending] = useState<Pending | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const repay = useContractMutation(repayLoanContract, { invalidates: loansChanged });
  const limits = useRef({ available, owedNow: loan.owedNow });
  limits.current = { available, owedNow: loan.owedNow };
  const schema = useMemo(() => repayFormSchema(() => limits.current), []);
  const form = useContractForm(schema, { defaultValues: { full: true, amount: '' } });
  const full = form.watch('full');
  const typed = normaliseAmountInput(form.watch('amount'));
  const split = repaySplit(loan, typed, full);

  const review = form.handleSubmit((values) => {
    setRefused(null);
    setPending({ full: values.full, amount: values.full ? '' : normaliseAmountInput(values.amount) });
  });

  async function confirm(step: Pending, paymentPassword: string): Promise<boolean> {
    setRefused(null);
    const body = step.full ? { full: true, paymentPassword } : { full: false, amount: step.amount, paymentPassword };
    try {
      const answer = await repay.mutateAsync({
        params: { loanId: loan.id },
        body,
        idempotencyKey: actionKey.keyFor(JSON.stringify({ loanId: loan.id, full: step.full, amount: step.amount })),
      });
      actionKey.settle();
      setPending(null);
      onDone(answer);
      return true;
    } catch (error) {
      actionKey.settle(error);
      if (isSessionError(error)) return true;
      const answer = refusedBy(error);
      setRefused(answer);
      const refusal = describeLoanRefusal(answer.message, answer.data, format, 'repay');
      if (refusal.field === 'amount' || refusal.errorKey === 'LOAN_NOT_OUTSTANDING') setPending(null);
      return false;
    }
  }

  const pendingSplit = pending ? repaySplit(loan, pending.amount, pending.full) : null;
  return (
    <Card className="loans-card">
      <form className="options-form" onSubmit={(event) => event.preventDefault()} noValidate aria-label={t('web.loans.repay.form')}>
        <dl className="facts" data-testid="loan-repay-loan" data-loan-id={loan.id}>
          <LoanFact label={t('web.loans.amount')} testId="loan-repay-amount-lent" value={loan.amount}>
            <Amount value={loan.amount} unit="USDT" max={6} />
          </LoanFact>
          <LoanFact label={t('web.loans.repay.principalLeft')} testId="loan-repay-principal-left" value={loan.principalOutstanding}>
            <Amount value={loan.principalOutstanding} unit="USDT" max={6} />
          </LoanFact>
          <LoanFact label={t('web.loans.repay.interestDue')} testId="loan-repay-interest-due" value={split?.interestDue ?? ''}>
            {split ? text.amount(split.interestDue, 'USDT') : '—'}{' '}
            {loan.daysBegun !== null && <span className="muted">{t('web.loans.list.daysBegun', { count: loan.daysBegun })}</span>}
          </LoanFact>
          <div className="facts-strong">
            <dt>{t('web.loans.owedNow')}</dt>
            <dd data-testid="loan-repay-owed-now" data-value={loan.owedNow ?? ''}>
              {loan.owedNow === null ? '—' : <Amount value={loan.owedNow} unit="USDT" max={6} />}
            </dd>
          </div>
          <LoanFact label={t('web.loans.list.dueAt')} testId="loan-repay-due-at">
            {loan.dueAtMs === null ? '—' : text.time(loan.dueAtMs)}
          </LoanFact>
        </dl>
        <Segmented
          label={t('web.loans.repay.how')}
          value={full ? 'full' : 'part'}
          onChange={(value) => {
            form.setValue('full', value === 'full');
            form.clearErrors('amount');
            setRefused(null);
          }}
          options={[
            { value: 'full', label: t('web.loans.repay.full'), testId: 'loan-repay-full' },
            { value: 'part', label: t('web.loans.repay.part'), testId: 'loan-repay-part' },
          ]}
        />
        {!full && (
          <TextField
            label={t('web.loans.repay.amount')}
            inputMode="decimal"
            autoComplete="off"
            maxLength={40}
            data-testid="loan-repay-amount"
            {...form.register('amount', { onChange: () => setRefused(null) })}
            error={errorText(form.formState.errors.amount, {
              required: t('web.loans.repay.amountRequired'),
              asset: 'USDT',
              scale: 6,
              own: { [loanProblems.aboveOwed]: t('web.loans.repay.aboveOwed', { owed: text.amount(loan.owedNow ?? '0', 'USDT') }) },
            })}
          />
        )}
        <p className="muted">
          {t('web.loans.available')} <Amount value={available ?? '0'} unit="USDT" max={6} testId="loan-repay-available" />
        </p>
        <dl className="facts" data-testid="loan-repay-split">
          <LoanFact label={t('web.loans.repay.paysInterest')} testId="loan-repay-split-interest" value={split?.interest ?? ''}>
            {split ? text.amount(split.interest, 'USDT') : '—'}
          </LoanFact>
          <LoanFact label={t('web.loans.repay.paysPrincipal')} testId="loan-repay-split-principal" value={split?.principal ?? ''}>
            {split ? text.amount(split.principal, 'USDT') : '—'}
          </LoanFact>
          <LoanFact label={t('web.loans.repay.remaining')} testId="loan-repay-split-remaining" value={split?.remaining ?? ''}>
            {split ? text.amount(split.remaining, 'USDT') : '—'}
          </LoanFact>
        </dl>
        <p className="field-hint">{t(full ? 'web.loans.repay.fullNote' : 'web.loans.repay.partNote')}</p>
        {refused && pending === null && <LoanRefusalNotice refused={refused} action="repay" testId="loan-repay-error" />}
        <Button block onClick={() => void review()} data-testid="loan-repay-review">
          {t('web.loans.repay.review')}
        </Button>
      </form>
      {pending && (
        <LoanPasswordSheet
          title={t('web.loans.repay.confirmTitle')}
          testId="loan-repay-sheet"
          submitLabel={t('web.loans.repay.submit')}
          action="repay"
          busy={repay.isPending}
          refused={refused}
          onConfirm={(paymentPassword) => confirm(pending, paymentPassword)}
          onEdit={() => setRefused(null)}
          onClose={() => setPending(null)}
        >
          <p data-testid="loan-repay-sheet-summary" data-amount={pending.full ? (loan.owedNow ?? '') : pending.amount}>
            {t(pending.full ? 'web.loans.repay.confirmFull' : 'web.loans.repay.confirmPart', {
              amount: text.amount(pending.full ? (loan.owedNow ?? '0') : pending.amount, 'USDT'),
              no: loan.loanNo,
              interest: text.amount(pendingSplit?.interest ?? '0', 'USDT'),
              principal: text.amount(pendingSplit?.principal ?? '0', 'USDT'),
            })}
          </p>
        </LoanPasswordSheet>
      )}
    </Card>
  );
}

/**
 * /person/loanBack: repay a passed loan (chosen here, or named by `?loanId=`): in full or in part,
 * with what is owed now and how the amount splits (interest first, then principal), the payment
 * password and an Idempotency-Key.
 */
export function LoanRepayView() {
  const { t } = useI18n();
  const text = useLoanText();
  const [params, setParams] = useSearchParams();
  const asked = params.get('loanId') ?? '';
  const loanId = /^\d{1,19}$/.test(asked) ? asked : '';
  const open = useContractQuery(listLoansContract, { query: { scope: 'open', page: 1, pageSize: 100 } });
  const passed = (open.data?.items ?? []).filter((each) => each.status === 'passed');
  const chosen = loanId || passed[0]?.id || '';
  const loan = useLoan(chosen, chosen !== '');
  const overview = useLoansOverview();
  const available = overview.data?.balances.find((each) => each.asset === 'USDT')?.available;
  const [done, setDone] = useState<LoanView | null>(null);

  return (
    <>
      <LoanSwitch current="repay" />
      {done && (
        <Notice testId="loan-repaid-notice">
          <span data-status={done.status} data-owed={done.owedNow ?? ''}>
            {done.status === 'repaid'
              ? t('web.loans.repay.doneFull', { no: done.loanNo })
              : t('web.loans.repay.donePart', { no: done.loanNo, owed: text.amount(done.owedNow ?? '0', 'USDT') })}
          </span>{' '}
          <Link to={done.status === 'repaid' ? '/person/loanList?scope=closed' : '/person/loanList'}>{t('web.loans.nav.list')}</Link>
        </Notice>
      )}
      {open.isError && <LoadFailedNotice onRetry={() => void open.refetch()} />}
      {passed.length > 0 && (
        <SelectField
          label={t('web.loans.repay.choose')}
          value={chosen}
          testId="loan-repay-choose"
          options={[
            ...passed.map((each) => ({ value: each.id, label: t('web.loans.repay.option', { no: each.loanNo, owed: text.amount(each.owedNow ?? '0', 'USDT') }) })),
            ...(passed.some((each) => each.id === chosen) || chosen === '' ? [] : [{ value: chosen, label: t('web.loans.repay.optionOther', { id: chosen }) }]),
          ]}
          onChange={(value) => {
            setDone(null);
            setParams({ loanId: value }, { replace: true });
          }}
        />
      )}
      {chosen === '' ? (
        open.data && (
          <p className="muted" data-testid="loan-repay-none">
            {t('web.loans.repay.none')}
          </p>
        )
      ) : loan.data === null ? (
        loan.failed ? <LoadFailedNotice onRetry={loan.reload} /> : <p className="muted">{t('web.common.loading')}</p>
      ) : loan.data.status !== 'passed' ? (
        // Just repaid here: the notice above says so; a warning that it is "not outstanding" would contradict it.
        done?.id === loan.data.id ? null : (
          <Notice tone="warning" testId="loan-repay-not-outstanding">
            {t('web.loans.repay.notOutstanding', { no: loan.data.loanNo, status: t(statusKeys[loan.data.status]) })}
          </Notice>
        )
      ) : (
        <RepayForm key={loan.data.id} loan={loan.data} available={available} onDone={setDone} />
      )}
    </>
  );
}
