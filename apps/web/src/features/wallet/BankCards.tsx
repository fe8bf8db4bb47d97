import { addBankCardContract, ApiError, type ContractData, errorCatalogue, listBankCardsContract, removeBankCardContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, isSessionError } from '../../shared/api/client.ts';
import { useApiQuery } from '../../shared/api/useApiQuery.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, TextField, useBack } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { type BankCardField, type BankCardProblem, checkBankCard } from './form-checks.ts';
import { useRemoveItem, WalletList } from './WalletList.tsx';
import { ConfirmAction, Fact, RefusalNotice } from './WalletParts.tsx';
import { cardPickedPath } from './wallet-paths.ts';

type BankCard = ContractData<typeof listBankCardsContract>['items'][number];

/** The last four digits, the rest hidden: enough to recognise one's own card on a shared screen. */
const maskAccount = (account: string) => (account.length > 4 ? `•••• ${account.slice(-4)}` : account);

function CardRow({ card, picker, onChoose, onRemove, removing }: { card: BankCard; picker: boolean; onChoose: () => void; onRemove: () => void; removing: boolean }) {
  const { t } = useI18n();
  return (
    <li className="wallet-row" data-testid={`card-row-${card.id}`}>
      <div className="wallet-row-head">
        <strong data-testid="card-row-bank">{card.bankName}</strong>
        <bdi dir="ltr" className="mono" title={card.bankAccount} data-testid="card-row-account" data-full={card.bankAccount}>
          {maskAccount(card.bankAccount)}
        </bdi>
      </div>
      <dl className="wallet-row-facts">
        <Fact label={t('web.card.realName')} testId="card-row-name">
          {card.realName}
        </Fact>
        <Fact label={t('web.card.ifsc')} testId="card-row-ifsc">
          <bdi dir="ltr">{card.ifsc}</bdi>
        </Fact>
        <Fact label={t('web.card.phone')} testId="card-row-phone">
          <bdi dir="ltr">{card.phone}</bdi>
        </Fact>
        <Fact label={t('web.card.email')} testId="card-row-email">
          <bdi dir="ltr">{card.email}</bdi>
        </Fact>
      </dl>
      <div className="wallet-row-actions">
        {picker && (
          <Button className="btn-small" onClick={onChoose} data-testid="card-row-choose">
            {t('web.card.choose')}
          </Button>
        )}
        <ConfirmAction
          label={t('web.card.remove')}
          question={t('web.card.removeQuestion')}
          confirmLabel={t('web.card.removeConfirm')}
          busy={removing}
          onConfirm={onRemove}
          testId="card-row-remove"
        />
      </div>
    </li>
  );
}

/**
 * /assets/card/{selete} and /person/setting/bank: the user's bank cards. As a picker (`select` or
 * `1`) choosing a card goes back to the page named in `?return=` with `?cardId=`; otherwise it is
 * the manage view.
 */
export function BankCards({ picker }: { picker: boolean }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const cards = useApiQuery(listBankCardsContract);
  const { removing, error, remove } = useRemoveItem({
    call: (cardId) => api(removeBankCardContract, { params: { cardId } }),
    removedKey: 'web.card.removed',
    reload: cards.reload,
  });

  return (
    <>
      {picker && <Notice testId="card-picker">{t('web.card.pickIntro')}</Notice>}
      <WalletList source={cards} items={cards.data?.items ?? null} error={error} emptyText={t('web.card.empty')} testId="cards">
        {(card) => (
          <CardRow
            key={card.id}
            card={card}
            picker={picker}
            removing={removing === card.id}
            onChoose={() => navigate(cardPickedPath(params.get('return'), card.id), { replace: true })}
            onRemove={() => void remove(card.id)}
          />
        )}
      </WalletList>
      <Link to="/assets/addcard" className="btn btn-primary btn-block" data-testid="to-addcard">
        {t('web.card.add')}
      </Link>
    </>
  );
}

const fields: { name: BankCardField; label: MessageKey; inputMode?: 'tel' | 'numeric' | 'email'; autoComplete: string; ltr?: boolean; max: number }[] = [
  { name: 'realName', label: 'web.card.realName', autoComplete: 'name', max: 100 },
  { name: 'phone', label: 'web.card.phone', inputMode: 'tel', autoComplete: 'tel', ltr: true, max: 32 },
  { name: 'bankName', label: 'web.card.bankName', autoComplete: 'off', max: 100 },
  { name: 'bankAccount', label: 'web.card.bankAccount', inputMode: 'numeric', autoComplete: 'off', ltr: true, max: 24 },
  { name: 'ifsc', label: 'web.card.ifsc', autoComplete: 'off', ltr: true, max: 11 },
  { name: 'email', label: 'web.card.email', inputMode: 'email', autoComplete: 'email', ltr: true, max: 254 },
];

const problemKeys: Record<BankCardProblem, MessageKey> = {
  required: 'web.validation.required',
  tooShort: 'web.card.problem.tooShort',
  tooLong: 'web.card.problem.tooLong',
  characters: 'web.card.problem.characters',
  phoneFormat: 'web.auth.problem.phoneFormat',
  accountFormat: 'web.card.problem.accountFormat',
  ifscFormat: 'web.card.problem.ifscFormat',
  emailFormat: 'web.auth.problem.emailFormat',
};

const hints: Partial<Record<BankCardField, MessageKey>> = {
  phone: 'web.card.phoneHint',
  bankAccount: 'web.card.accountHint',
  ifsc: 'web.card.ifscHint',
};

/** /assets/addcard: a bank card, each field checked here as the server checks it. */
export function AddCardForm() {
  const { t } = useI18n();
  const toast = useToast();
  const back = useBack('/assets/card/manage');
  const [form, setForm] = useState<Record<BankCardField, string>>({ realName: '', phone: '', bankName: '', bankAccount: '', ifsc: '', email: '' });
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<{ message: string; data: unknown } | null>(null);
  const result = checkBankCard(form);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    setRefused(null);
    if (!result.body) return;
    setBusy(true);
    try {
      await api(addBankCardContract, { body: result.body });
      toast(t('web.card.added'));
      back();
    } catch (error) {
      setBusy(false);
      if (isSessionError(error)) return;
      setRefused(error instanceof ApiError ? { message: error.message, data: error.data } : { message: errorCatalogue.SYSTEM_ERROR.msg, data: null });
    }
  }

  return (
    <form className="card form-card" onSubmit={submit} noValidate data-testid="card-form">
      {refused && <RefusalNotice message={refused.message} data={refused.data} />}
      {fields.map((field) => {
        const problem = checked ? result.problems[field.name] : undefined;
        const hint = hints[field.name];
        return (
          <TextField
            key={field.name}
            label={t(field.label)}
            name={field.name}
            inputMode={field.inputMode}
            autoComplete={field.autoComplete}
            dir={field.ltr ? 'ltr' : undefined}
            value={form[field.name]}
            maxLength={field.max}
            hint={hint ? t(hint) : undefined}
            data-testid={`card-${field.name}`}
            onChange={(event) => {
              const value = event.target.value;
              setForm((current) => ({ ...current, [field.name]: value }));
              setRefused(null);
            }}
            error={problem ? t(problemKeys[problem]) : undefined}
          />
        );
      })}
      <Button type="submit" block busy={busy} data-testid="card-submit">
        {t('web.card.save')}
      </Button>
    </form>
  );
}
