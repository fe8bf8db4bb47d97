import { getMerchantProfileContract, listMerchantRequestsContract, saveMerchantProfileContract } from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type FieldError, useFieldArray } from 'react-hook-form';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { c2cCountries, currencyOf, merchantProfileFormSchema, nextTermsRow, profileFormValues, saveRefusal } from './c2c-console.ts';
import { useConsole } from './console-outlet.ts';

/** The form's own sentences where the rule's generic one says too little. */
const messages = {
  displayName: { '*': fieldMessage('admin.c2c.problem.displayName') },
};

/**
 * /admin/c2c/merchant/profile — the merchant's profile, checked by the save contract's body
 * (`merchantProfileFormSchema`): the name users see, the payment details a deposit's user pays to,
 * online or offline, and the terms per served country (the price in its fiat per USDT, the
 * smallest and largest order in USDT). Before the first save the form is empty. Terms reach
 * requests offered from the save on; an accepted order keeps its price. The server's refusals are
 * put on the row and number they name (`saveRefusal`).
 */
export function MerchantProfileTab() {
  const { t } = useI18n();
  const { profile } = useConsole();
  const client = useQueryClient();
  const form = useContractForm(merchantProfileFormSchema, { defaultValues: profileFormValues(profile), messages });
  const { errors } = form.formState;
  const rows = useFieldArray({ control: form.control, name: 'terms' });
  const [saved, setSaved] = useState(false);
  const save = useContractMutation(saveMerchantProfileContract, {
    invalidates: [listMerchantRequestsContract],
    onSuccess: (answer) => {
      client.setQueryData(contractKey(getMerchantProfileContract, {}), answer);
      form.reset(profileFormValues(answer));
      setSaved(true);
    },
  });
  const refusal = saveRefusal(save.error);

  // The console's quick switch saves the online state on its own: the form follows it.
  const savedOnline = profile?.online;
  useEffect(() => {
    if (savedOnline !== undefined) form.resetField('online', { defaultValue: savedOnline });
  }, [savedOnline, form]);

  const submit = form.handleSubmit((body) => {
    setSaved(false);
    save.mutate(
      { body },
      {
        onError: (error) => {
          const placed = saveRefusal(error);
          if (placed) form.setError(placed.field, { type: 'server', message: fieldMessage(placed.key, placed.vars) }, { shouldFocus: true });
        },
      },
    );
  });

  const terms = form.watch('terms');
  const next = nextTermsRow(terms);
  const termsError = (errors.terms?.root ?? (errors.terms?.message ? errors.terms : undefined)) as FieldError | undefined;

  return (
    <section className="card detail" aria-label={t('admin.c2c.profile.title')} data-testid="c2c-profile">
      <h3>{t('admin.c2c.profile.title')}</h3>
      <p className="muted">{t('admin.c2c.profile.intro')}</p>
      <form onSubmit={submit} noValidate>
        <div className="form-field">
          <label htmlFor="c2c-display-name">{t('admin.c2c.profile.displayName')}</label>
          <input
            id="c2c-display-name"
            maxLength={40}
            autoComplete="off"
            required
            dir="auto"
            aria-describedby="c2c-display-name-hint c2c-display-name-error"
            aria-invalid={errors.displayName ? true : undefined}
            data-testid="c2c-profile-name"
            {...form.register('displayName')}
          />
          <p className="muted hint" id="c2c-display-name-hint">
            {t('admin.c2c.profile.displayNameHint')}
          </p>
          <FieldErrorText error={errors.displayName} id="c2c-display-name-error" />
        </div>
        <div className="form-field">
          <label htmlFor="c2c-payment-details">{t('admin.c2c.profile.paymentDetails')}</label>
          <textarea
            id="c2c-payment-details"
            maxLength={500}
            autoComplete="off"
            dir="auto"
            aria-describedby="c2c-payment-details-hint c2c-payment-details-error"
            aria-invalid={errors.paymentDetails ? true : undefined}
            data-testid="c2c-profile-payment"
            {...form.register('paymentDetails')}
          />
          <p className="muted hint" id="c2c-payment-details-hint">
            {t('admin.c2c.profile.paymentDetailsHint')}
          </p>
          <FieldErrorText error={errors.paymentDetails} id="c2c-payment-details-error" />
        </div>
        <div className="form-field">
          <label className="check">
            <input type="checkbox" aria-describedby="c2c-online-hint" data-testid="c2c-profile-online" {...form.register('online')} />
            {t('admin.c2c.profile.online')}
          </label>
          <p className="muted hint" id="c2c-online-hint">
            {t('admin.c2c.profile.onlineHint')}
          </p>
        </div>
        <fieldset className="c2c-terms" data-testid="c2c-terms" aria-describedby="c2c-terms-hint c2c-terms-error">
          <legend>{t('admin.c2c.terms.title')}</legend>
          <p className="muted hint" id="c2c-terms-hint">
            {t('admin.c2c.terms.hint')}
          </p>
          {rows.fields.length === 0 && (
            <p className="notice" data-testid="c2c-terms-empty">
              {t('admin.c2c.terms.empty')}
            </p>
          )}
          {rows.fields.map((row, index) => {
            const rowErrors = errors.terms?.[index];
            const currency = currencyOf(terms[index]?.country ?? '') ?? '';
            const errorId = (name: string) => `c2c-terms-${index}-${name}-error`;
            return (
              <div key={row.id} className="row start c2c-terms-row" data-testid={`c2c-terms-row-${index}`}>
                <label>
                  {t('admin.c2c.terms.country')}
                  <select aria-describedby={errorId('country')} data-testid={`c2c-terms-country-${index}`} {...form.register(`terms.${index}.country`)}>
                    {c2cCountries.map((code) => (
                      <option key={code} value={code}>
                        {t('admin.c2c.countryValue', { country: code, currency: currencyOf(code) ?? '' })}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  {t('admin.c2c.terms.price', { currency })}
                  <input
                    inputMode="decimal"
                    autoComplete="off"
                    dir="ltr"
                    required
                    aria-invalid={rowErrors?.price ? true : undefined}
                    aria-describedby={errorId('price')}
                    data-testid={`c2c-terms-price-${index}`}
                    {...form.register(`terms.${index}.price`)}
                  />
                </label>
                <label>
                  {t('admin.c2c.terms.min')}
                  <input
                    inputMode="decimal"
                    autoComplete="off"
                    dir="ltr"
                    required
                    aria-invalid={rowErrors?.minUsdt ? true : undefined}
                    aria-describedby={errorId('minUsdt')}
                    data-testid={`c2c-terms-min-${index}`}
                    {...form.register(`terms.${index}.minUsdt`)}
                  />
                </label>
                <label>
                  {t('admin.c2c.terms.max')}
                  <input
                    inputMode="decimal"
                    autoComplete="off"
                    dir="ltr"
                    required
                    aria-invalid={rowErrors?.maxUsdt ? true : undefined}
                    aria-describedby={errorId('maxUsdt')}
                    data-testid={`c2c-terms-max-${index}`}
                    {...form.register(`terms.${index}.maxUsdt`)}
                  />
                </label>
                <button type="button" className="secondary" onClick={() => rows.remove(index)} data-testid={`c2c-terms-remove-${index}`}>
                  {t('admin.c2c.terms.remove', { country: terms[index]?.country ?? '' })}
                </button>
                <FieldErrorText error={rowErrors?.country} id={errorId('country')} />
                <FieldErrorText error={rowErrors?.price} id={errorId('price')} />
                <FieldErrorText error={rowErrors?.minUsdt} id={errorId('minUsdt')} />
                <FieldErrorText error={rowErrors?.maxUsdt} id={errorId('maxUsdt')} />
              </div>
            );
          })}
          <FieldErrorText error={termsError} id="c2c-terms-error" />
          <button type="button" className="secondary" onClick={() => next && rows.append(next)} disabled={next === null} data-testid="c2c-terms-add">
            {t('admin.c2c.terms.add')}
          </button>
        </fieldset>
        <ErrorAlert error={refusal ? null : save.error} />
        {refusal && <ErrorAlert message={t('admin.c2c.profile.refusedOnField')} />}
        {saved && !form.formState.isDirty && (
          <p className="notice" role="status" data-testid="c2c-profile-saved">
            {t('admin.c2c.profile.saved')}
          </p>
        )}
        <div className="row">
          <button type="submit" disabled={save.isPending} data-testid="c2c-profile-save">
            {t('admin.c2c.profile.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
