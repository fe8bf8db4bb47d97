import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useI18n } from '../i18n/I18nProvider.tsx';
import { Notice } from '../ui/components.tsx';

/**
 * The form-level notice of a form (ADR 0027): the refusal `applyRefusal` could not put on a field,
 * translated from the catalogue, or a text a form set with `setFormNotice`. Cleared by the next submit.
 */
// biome-ignore lint/suspicious/noExplicitAny: any form; only its root error is read.
export function FormError<T extends FieldValues>({ form, testId = 'form-error' }: { form: UseFormReturn<T, any, any>; testId?: string }) {
  const { tServer } = useI18n();
  const notice = form.formState.errors.root?.server;
  if (!notice?.message) return null;
  return (
    <Notice tone="error" testId={testId}>
      {notice.type === 'text' ? notice.message : tServer(notice.message)}
    </Notice>
  );
}
