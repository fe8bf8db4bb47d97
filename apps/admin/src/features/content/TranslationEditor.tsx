import {
  deleteContentTranslationContract,
  getStaffContentContract,
  type LocaleCode,
  listStaffContentContract,
  localeNames,
  rtlLocales,
  type StaffContentDetail,
  saveContentTranslationContract,
} from '@keel/contracts';
import { contractKey } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { formatEpochMs } from '../../shared/format.ts';
import { FieldErrorText } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractMutation } from '../../shared/queries.ts';
import { contentResolver, translationSchemaFor } from './content-form.ts';
import { altFromFileName, imageMarkdown, insertAtCursor, placeRefusal, translationStates } from './content-model.ts';
import { PhonePreview } from './PhonePreview.tsx';
import { uploadContentImage } from './upload.ts';

type Values = z.input<ReturnType<typeof translationSchemaFor>>;
type Output = z.output<ReturnType<typeof translationSchemaFor>>;
const fields = ['title', 'summary', 'body'] as const;

/** A change that answers the item as it now is: drawn at once, and the list read again. */
function useTranslationChange<C extends typeof saveContentTranslationContract | typeof deleteContentTranslationContract>(contract: C) {
  const client = useQueryClient();
  return useContractMutation(contract, {
    invalidates: [listStaffContentContract],
    onSuccess: (data) => {
      const item = data as StaffContentDetail;
      client.setQueryData(contractKey(getStaffContentContract, { params: { itemId: item.id } }), item);
    },
  });
}

/**
 * One language's words: title, summary and Markdown body, checked by the contract's
 * `contentTranslationInputSchema` (no HTML, no code-running link, images only from Keel's content
 * images, headings ## and ###) before the server checks the same; save, and remove for a language
 * other than English. "Insert image" uploads a file (cleaned by the uploads pipeline) and writes its
 * Markdown where the cursor is. Beside the form, the preview as a phone shows it, of what is typed.
 */
export function TranslationEditor({
  item,
  language,
  onDirtyChange,
}: {
  item: StaffContentDetail;
  language: LocaleCode;
  /** Whether the words differ from what is saved (the editor asks before they are left). */
  onDirtyChange: (dirty: boolean) => void;
}) {
  const { t } = useI18n();
  const text = item.texts.find((each) => each.language === language);
  const english = item.texts.find((each) => each.language === 'en');
  const state = translationStates(item).find((each) => each.language === language)?.state ?? 'missing';
  const save = useTranslationChange(saveContentTranslationContract);
  const remove = useTranslationChange(deleteContentTranslationContract);
  const form = useForm<Values, unknown, Output>({
    defaultValues: { title: text?.title ?? '', summary: text?.summary ?? '', body: text?.body ?? '' },
    resolver: contentResolver(translationSchemaFor(item.kind)),
  });
  const { errors, isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<unknown>(null);
  const bodyRef = useRef<HTMLTextAreaElement | null>(null);
  const fileRef = useRef<HTMLInputElement | null>(null);
  const values = form.watch();
  const name = localeNames[language];
  const dir = rtlLocales.has(language) ? 'rtl' : 'ltr';
  const id = (field: (typeof fields)[number]) => `content-text-${field}`;
  const described = (field: (typeof fields)[number], hint = false) => ({
    id: id(field),
    'aria-describedby': hint ? `${id(field)}-hint ${id(field)}-error` : `${id(field)}-error`,
    'aria-invalid': errors[field] ? true : undefined,
  });
  const bodyField = form.register('body');

  const submit = form.handleSubmit((body) => {
    setNotice(null);
    save.mutate(
      { params: { itemId: item.id, language }, body },
      {
        onSuccess: (next) => {
          const saved = next.texts.find((each) => each.language === language);
          if (saved) form.reset({ title: saved.title, summary: saved.summary, body: saved.body });
          setNotice(t('admin.content.text.saved', { language: name }));
        },
        onError: (error) => {
          for (const placed of placeRefusal(error, fields)) {
            form.setError(placed.field as (typeof fields)[number], { type: 'server', message: placed.message }, { shouldFocus: true });
          }
        },
      },
    );
  });

  const insertImage = async (file: File) => {
    setUploading(true);
    setUploadError(null);
    try {
      const image = await uploadContentImage(file);
      const textarea = bodyRef.current;
      const current = form.getValues('body') ?? '';
      const start = textarea?.selectionStart ?? current.length;
      const end = textarea?.selectionEnd ?? current.length;
      const inserted = insertAtCursor(current, start, end, imageMarkdown(altFromFileName(file.name), image.path, current.slice(0, start)));
      form.setValue('body', inserted.text, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
      if (textarea) {
        textarea.focus();
        textarea.setSelectionRange(inserted.cursor, inserted.cursor);
      }
    } catch (error) {
      setUploadError(error);
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <div className="content-workspace" data-testid="content-translation" data-language={language}>
      <form onSubmit={submit} noValidate aria-label={t('admin.content.text.formLabel', { language: name })}>
        <h4>{t('admin.content.text.title', { language: name })}</h4>
        {language === 'en' ? (
          <p className="muted">{t('admin.content.text.englishNote')}</p>
        ) : state === 'missing' ? (
          <p className="notice" data-testid="content-text-missing">
            {t('admin.content.text.missing', { language: name })}
          </p>
        ) : state === 'stale' ? (
          <p className="notice" data-testid="content-text-stale">
            {t('admin.content.text.stale')}
          </p>
        ) : null}
        {text && <p className="muted">{t('admin.content.text.savedAt', { time: formatEpochMs(text.updatedAtMs) })}</p>}
        {language !== 'en' && english && (
          <details className="english-reference" data-testid="content-english-reference">
            <summary>{t('admin.content.text.englishReference')}</summary>
            <pre lang="en" dir="ltr">{[english.title, english.summary, english.body].filter((part) => part.trim() !== '').join('\n\n')}</pre>
          </details>
        )}
        <div className="form-field">
          <label htmlFor={id('title')}>{t('admin.content.field.title')}</label>
          <input maxLength={120} autoComplete="off" lang={language} dir={dir} required {...described('title')} {...form.register('title')} />
          <FieldErrorText error={errors.title} id={`${id('title')}-error`} />
        </div>
        <div className="form-field">
          <label htmlFor={id('summary')}>{t('admin.content.field.summary')}</label>
          <textarea className="summary" maxLength={300} lang={language} dir={dir} {...described('summary', true)} {...form.register('summary')} />
          <p className="muted hint" id={`${id('summary')}-hint`}>
            {t('admin.content.field.summaryHint')}
          </p>
          <FieldErrorText error={errors.summary} id={`${id('summary')}-error`} />
        </div>
        <div className="form-field">
          <label htmlFor={id('body')}>{t('admin.content.field.body')}</label>
          <div className="row start">
            <button type="button" className="secondary" onClick={() => fileRef.current?.click()} disabled={uploading} data-testid="content-insert-image">
              {uploading ? t('admin.content.image.uploading') : t('admin.content.image.insert')}
            </button>
            <input
              ref={fileRef}
              type="file"
              accept="image/png,image/jpeg,image/gif"
              hidden
              aria-label={t('admin.content.image.insert')}
              data-testid="content-image-file"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) void insertImage(file);
              }}
            />
            <span className="muted">{t('admin.content.image.hint')}</span>
          </div>
          <ErrorAlert error={uploadError} />
          <textarea
            className="markdown"
            rows={16}
            lang={language}
            dir={dir}
            {...described('body', true)}
            {...bodyField}
            ref={(element) => {
              bodyField.ref(element);
              bodyRef.current = element;
            }}
          />
          <p className="muted hint" id={`${id('body')}-hint`}>
            {t('admin.content.field.bodyHint')}
          </p>
          <FieldErrorText error={errors.body} id={`${id('body')}-error`} />
        </div>
        {language === 'en' && item.translations.length > 0 && <p className="muted">{t('admin.content.text.englishMarksStale')}</p>}
        {notice && (
          <p className="notice" role="status" data-testid="content-text-saved">
            {notice}
          </p>
        )}
        <ErrorAlert error={save.error} />
        <div className="row start">
          <button type="submit" disabled={save.isPending} data-testid="content-text-save">
            {t('admin.content.text.save', { language: name })}
          </button>
          {language !== 'en' && text && (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setNotice(null);
                setRemoving(true);
              }}
              data-testid="content-text-remove"
            >
              {t('admin.content.text.remove', { language: name })}
            </button>
          )}
        </div>
      </form>
      <PhonePreview language={language} title={values.title ?? ''} summary={values.summary ?? ''} body={values.body ?? ''} />
      {removing && language !== 'en' && (
        <ConfirmDialog
          title={t('admin.content.text.removeTitle', { language: name })}
          text={t('admin.content.text.removeText', { language: name })}
          confirmLabel={t('admin.content.text.remove', { language: name })}
          danger
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() =>
            remove.mutate(
              { params: { itemId: item.id, language } },
              {
                onSuccess: () => {
                  setRemoving(false);
                  form.reset({ title: '', summary: '', body: '' });
                  setNotice(t('admin.content.text.removed', { language: name }));
                },
              },
            )
          }
          onCancel={() => {
            setRemoving(false);
            remove.reset();
          }}
          testId="content-remove-confirm"
        />
      )}
    </div>
  );
}
