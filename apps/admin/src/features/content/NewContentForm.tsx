import { contentKindSchema, createContentContract, listStaffContentContract, type StaffContentDetail } from '@keel/contracts';
import { type FieldErrors, type UseFormRegister, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { FieldErrorText } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { contentResolver, createFormSchema } from './content-form.ts';
import { type ContentKind, placeRefusal, type SettingsFormValues, settingsForKind, settingsFormValues } from './content-model.ts';
import { kindKey } from './content-shared.tsx';
import { SettingsFields } from './SettingsFields.tsx';

type FormValues = z.input<ReturnType<typeof createFormSchema>>;
type FormOutput = z.output<ReturnType<typeof createFormSchema>>;

const blank: FormValues = { kind: 'announcement', ...settingsFormValues(), english: { title: '', summary: '', body: '' } };

/** The fields a refusal of the server may be put on. */
const formFields = ['category', 'parentId', 'sortOrder', 'marketSymbols', 'linkPath', 'sample', 'english.title', 'english.summary', 'english.body'];

/**
 * "New item" (`createContentContract`): the kind, the settings that kind has, and the English
 * title, summary and Markdown body, checked by the contract's schemas (the sanitiser's rules) as
 * the server checks them. The item starts as a draft; it opens in the editor for its translations,
 * the preview and publishing.
 */
export function NewContentForm({ onClose, onCreated }: { onClose: () => void; onCreated: (item: StaffContentDetail) => void }) {
  const { t } = useI18n();
  const form = useForm<FormValues, unknown, FormOutput>({
    defaultValues: blank,
    // The rules depend on the kind chosen (a banner's body may be empty).
    resolver: (values, context, options) => contentResolver(createFormSchema(values.kind as ContentKind))(values, context, options),
  });
  const { errors } = form.formState;
  const kind = form.watch('kind') as ContentKind;
  const create = useContractMutation(createContentContract, { invalidates: [listStaffContentContract] });
  const title = t('admin.content.newTitle');

  const submit = form.handleSubmit(({ kind: chosen, english, ...settings }) =>
    create.mutate(
      { body: { kind: chosen, english, ...settingsForKind(chosen, settings) } },
      {
        onSuccess: onCreated,
        onError: (error) => {
          for (const placed of placeRefusal(error, formFields, 'english')) {
            form.setError(placed.field as 'english.title', { type: 'server', message: placed.message }, { shouldFocus: true });
          }
        },
      },
    ),
  );

  const described = (name: 'title' | 'summary' | 'body', hint = false) => ({
    id: `content-new-${name}`,
    'aria-describedby': hint ? `content-new-${name}-hint content-new-${name}-error` : `content-new-${name}-error`,
    'aria-invalid': errors.english?.[name] ? true : undefined,
  });

  return (
    <section className="card detail" aria-label={title} data-testid="content-new-form">
      <h3>{title}</h3>
      <p className="muted">{t('admin.content.newIntro')}</p>
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          <div className="form-field">
            <label htmlFor="content-new-kind">{t('admin.content.kindLabel')}</label>
            <select id="content-new-kind" {...form.register('kind')}>
              {contentKindSchema.options.map((each) => (
                <option key={each} value={each}>
                  {t(kindKey(each))}
                </option>
              ))}
            </select>
          </div>
        </div>
        <SettingsFields
          kind={kind}
          idPrefix="content-new"
          register={form.register as unknown as UseFormRegister<SettingsFormValues>}
          errors={errors as FieldErrors<SettingsFormValues>}
        />
        <div className="form-field">
          <label htmlFor="content-new-title">{t('admin.content.field.titleEnglish')}</label>
          <input maxLength={120} required autoComplete="off" {...described('title')} {...form.register('english.title')} />
          <FieldErrorText error={errors.english?.title} id="content-new-title-error" />
        </div>
        <div className="form-field">
          <label htmlFor="content-new-summary">{t('admin.content.field.summaryEnglish')}</label>
          <textarea className="summary" maxLength={300} {...described('summary', true)} {...form.register('english.summary')} />
          <p className="muted hint" id="content-new-summary-hint">
            {t('admin.content.field.summaryHint')}
          </p>
          <FieldErrorText error={errors.english?.summary} id="content-new-summary-error" />
        </div>
        <div className="form-field">
          <label htmlFor="content-new-body">{t('admin.content.field.bodyEnglish')}</label>
          <textarea className="markdown" rows={10} dir="ltr" {...described('body', true)} {...form.register('english.body')} />
          <p className="muted hint" id="content-new-body-hint">
            {t('admin.content.field.bodyHint')}
          </p>
          <FieldErrorText error={errors.english?.body} id="content-new-body-error" />
        </div>
        <p className="muted">{t('admin.content.audited')}</p>
        <ErrorAlert error={create.error} />
        <div className="row">
          <button type="button" className="secondary" onClick={onClose} disabled={create.isPending}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" disabled={create.isPending}>
            {t('admin.content.create')}
          </button>
        </div>
      </form>
    </section>
  );
}
