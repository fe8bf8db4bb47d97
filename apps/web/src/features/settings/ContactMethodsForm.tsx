import { contactMethodKinds, securityOverviewContract, setContactMethodsContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { useEffect, useId, useState } from 'react';
import { type FieldError, useFieldArray } from 'react-hook-form';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { applyRefusal, bodySchema, FormError, type FormOf, useContractForm, useErrorText } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { Button, LoadFailedNotice } from '../../shared/ui/components.tsx';
import { useToast } from '../../shared/ui/toast.tsx';

type Kind = (typeof contactMethodKinds)[number];
type Methods = { methods: { kind: Kind; value: string }[] };

const MAX_METHODS = 5;
const kindKeys: Record<Kind, MessageKey> = {
  phone: 'web.settings.contactKind.phone',
  email: 'web.settings.contactKind.email',
  telegram: 'web.settings.contactKind.telegram',
  whatsapp: 'web.settings.contactKind.whatsapp',
  wechat: 'web.settings.contactKind.wechat',
  line: 'web.settings.contactKind.line',
  other: 'web.settings.contactKind.other',
};

/** The contract's body: at most five methods, each value checked by its kind (ADR 0027). */
const schema = bodySchema(setContactMethodsContract);

function MethodRow({ form, index, onRemove }: { form: FormOf<Methods>; index: number; onRemove: () => void }) {
  const { t } = useI18n();
  const errorText = useErrorText();
  const id = useId();
  const error = errorText(form.formState.errors.methods?.[index]?.value as FieldError | undefined);
  return (
    <div className="contact-method-row" data-testid={`contact-row-${index}`}>
      <div className="field">
        <label htmlFor={`${id}-kind`}>{t('web.settings.contactKindLabel', { number: index + 1 })}</label>
        <select id={`${id}-kind`} {...form.register(`methods.${index}.kind`, {
            // A value that was refused may suit the new kind (or not): say so once the form was sent.
            onChange: () => form.formState.isSubmitted && void form.trigger(`methods.${index}.value`),
          })}>
          {contactMethodKinds.map((kind) => (
            <option key={kind} value={kind}>
              {t(kindKeys[kind])}
            </option>
          ))}
        </select>
      </div>
      <div className={error ? 'field has-error' : 'field'}>
        <label htmlFor={`${id}-value`}>{t('web.settings.contactValue', { number: index + 1 })}</label>
        <div className="field-control">
          <input
            id={`${id}-value`}
            maxLength={64}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            {...form.register(`methods.${index}.value`)}
          />
        </div>
      </div>
      <Button variant="ghost" className="btn-small" onClick={onRemove} aria-label={t('web.settings.contactRemove', { number: index + 1 })}>
        ✕
      </Button>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert" style={{ gridColumn: '1 / -1' }}>
          {error}
        </p>
      )}
    </div>
  );
}

/** /safeSetting/contact: up to five ways P2P trade partners can reach the user. */
export function ContactMethodsForm() {
  const { t } = useI18n();
  const toast = useToast();
  const security = useContractQuery(securityOverviewContract);
  const form = useContractForm(schema, { defaultValues: { methods: [] } });
  const rows = useFieldArray({ control: form.control, name: 'methods' });
  const save = useContractMutation(setContactMethodsContract, { invalidates: [securityOverviewContract] });
  // The saved methods fill the form once; a background refetch must not overwrite what is being typed.
  const [filled, setFilled] = useState(false);
  const saved = security.data?.contactMethods;

  useEffect(() => {
    if (saved && !filled) {
      form.reset({ methods: saved });
      setFilled(true);
    }
  }, [saved, filled, form]);

  const submit = form.handleSubmit(async (body) => {
    try {
      const answer = await save.mutateAsync({ body });
      form.reset({ methods: answer.methods });
      toast(t('web.settings.contactSaved'));
    } catch (error) {
      applyRefusal(form, error);
    }
  });

  if (loadFailed(security)) return <LoadFailedNotice onRetry={() => void security.refetch()} />;
  if (!filled) return <p className="muted">{t('web.common.loading')}</p>;
  const methodsForm = form as unknown as FormOf<Methods>;
  return (
    <form className="card" onSubmit={submit} noValidate>
      <p className="muted">{t('web.settings.contactIntro')}</p>
      <FormError form={form} />
      {rows.fields.length === 0 && <p data-testid="contact-empty">{t('web.settings.contactNone')}</p>}
      {rows.fields.map((row, index) => (
        <MethodRow key={row.id} form={methodsForm} index={index} onRemove={() => rows.remove(index)} />
      ))}
      <Button
        variant="secondary"
        disabled={rows.fields.length >= MAX_METHODS}
        onClick={() => rows.append({ kind: 'telegram', value: '' }, { shouldFocus: true })}
        data-testid="contact-add"
      >
        {t('web.settings.contactAdd')}
      </Button>
      {rows.fields.length >= MAX_METHODS && <p className="muted">{t('web.settings.contactMax', { max: MAX_METHODS })}</p>}
      <Button type="submit" block busy={form.formState.isSubmitting} data-testid="contact-submit">
        {t('web.settings.save')}
      </Button>
    </form>
  );
}
