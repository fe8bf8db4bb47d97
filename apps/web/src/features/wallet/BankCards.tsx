import { addBankCardContract, ApiError, type ContractData, errorCatalogue, listBankCardsContract, removeBankCardContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { applyRefusal, FormError, useContractForm, useErrorText } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, Notice, TextField, useBack } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';
import { bankCardFormSchema } from './form-checks.ts';
import { useRemoveItem, WalletList } from './WalletList.tsx';
import { ConfirmAction, Fact, type Refused, RefusalNotice, refusedBy } from './WalletParts.tsx';
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
  const cards = useContractQuery(listBankCardsContract);
  const removal = useContractMutation(removeBankCardContract, { invalidates: [listBankCardsContract] });
  const reload = () => void cards.refetch();
  const { removing, error, remove } = useRemoveItem({
    call: (cardId) => removal.mutateAsync({ params: { cardId } }),
    removedKey: 'web.card.removed',
    reload,
  });

  return (
    <>
      {picker && <Notice testId="card-picker">{t('web.card.pickIntro')}</Notice>}
      <WalletList source={{ failed: loadFailed(cards), reload }} items={cards.data?.items ?? null} error={error} emptyText={t('web.card.empty')} testId="cards">
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

type CardField = 'realName' | 'phone' | 'bankName' | 'bankAccount' | 'ifsc' | 'email';

const fields: { name: CardField; label: MessageKey; inputMode?: 'tel' | 'numeric' | 'email'; autoComplete: string; ltr?: boolean; max: number }[] = [
  { name: 'realName', label: 'web.card.realName', autoComplete: 'name', max: 100 },
  { name: 'phone', label: 'web.card.phone', inputMode: 'tel', autoComplete: 'tel', ltr: true, max: 32 },
  { name: 'bankName', label: 'web.card.bankName', autoComplete: 'off', max: 100 },
  { name: 'bankAccount', label: 'web.card.bankAccount', inputMode: 'numeric', autoComplete: 'off', ltr: true, max: 24 },
  { name: 'ifsc', label: 'web.card.ifsc', autoComplete: 'off', ltr: true, max: 11 },
  { name: 'email', label: 'web.card.email', inputMode: 'email', autoComplete: 'email', ltr: true, max: 254 },
];

const hints: Partial<Record<CardField, MessageKey>> = {
  phone: 'web.card.phoneHint',
  bankAccount: 'web.card.accountHint',
  ifsc: 'web.card.ifscHint',
};

/** /assets/addcard: a bank card, each field checked here by the contract's rules (`bankCardFormSchema`). */
export function AddCardForm() {
  const { t } = useI18n();
  const toast = useToast();
  const errorText = useErrorText();
  const back = useBack('/assets/card/manage');
  const [refused, setRefused] = useState<Refused | null>(null);
  const add = useContractMutation(addBankCardContract, { invalidates: [listBankCardsContract] });
  const form = useContractForm(bankCardFormSchema, {
    defaultValues: { realName: '', phone: '', bankName: '', bankAccount: '', ifsc: '', email: '' },
  });

  const submit = form.handleSubmit(async (body) => {
    setRefused(null);
    try {
      await add.mutateAsync({ body });
      toast(t('web.card.added'));
      back();
    } catch (error) {
      if (isSessionError(error)) return;
      // A field the server refuses (the phone, a "parameter error") is marked on it; the rest above the form.
      if (error instanceof ApiError && (error.message === errorCatalogue.PARAMETER_ERROR.msg || error.message === errorCatalogue.WRONG_PHONE_NUMBER.msg)) {
        applyRefusal(form, error, { fieldErrors: { WRONG_PHONE_NUMBER: 'phone' } });
      } else setRefused(refusedBy(error));
    }
  });

  return (
    <form className="card form-card" onSubmit={submit} noValidate data-testid="card-form">
      {refused && <RefusalNotice message={refused.message} data={refused.data} />}
      <FormError form={form} />
      {fields.map((field) => {
        const hint = hints[field.name];
        return (
          <TextField
            key={field.name}
            label={t(field.label)}
            inputMode={field.inputMode}
            autoComplete={field.autoComplete}
            dir={field.ltr ? 'ltr' : undefined}
            maxLength={field.max}
            hint={hint ? t(hint) : undefined}
            data-testid={`card-${field.name}`}
            {...form.register(field.name, { onChange: () => setRefused(null) })}
            error={errorText(form.formState.errors[field.name])}
          />
        );
      })}
      <Button type="submit" block busy={add.isPending || add.isSuccess} data-testid="card-submit">
        {t('web.card.save')}
      </Button>
    </form>
  );
}
