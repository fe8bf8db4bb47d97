import type { ReactNode } from 'react';
import type { z } from 'zod';
import { FieldErrorText, useContractForm } from './forms.tsx';
import { useI18n } from './i18n.tsx';

/** What the search box needs of a list (`useListQuery`): its query schema, its filter and how to apply one. */
interface SearchedList {
  schema: z.ZodObject;
  filter: Record<string, unknown>;
  applyFilter: (changes: Record<string, string | undefined>) => void;
}

/**
 * A list's search box: one `field` of the list contract's query schema (checked by it before the
 * search is sent), showing the URL's value — back and forward change it too. The same search
 * again reads the list again; `children` are further buttons of the toolbar.
 */
export function SearchForm({
  list,
  field,
  label,
  maxLength,
  children,
}: {
  list: SearchedList;
  field: string;
  label: string;
  maxLength: number;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  const value = list.filter[field];
  const form = useContractForm(list.schema.pick({ [field]: true } as never) as z.ZodType<Record<string, string>, Record<string, string>>, {
    values: { [field]: typeof value === 'string' ? value : '' },
  });
  const error = form.formState.errors[field];
  const submit = form.handleSubmit((values) => list.applyFilter({ [field]: values[field] || undefined }));
  return (
    <search>
      <form className="toolbar" onSubmit={submit} noValidate>
        <input aria-label={label} placeholder={label} maxLength={maxLength} aria-describedby={`${field}-error`} {...form.register(field)} />
        <button type="submit">{t('admin.users.searchButton')}</button>
        {children}
      </form>
      <FieldErrorText error={error} id={`${field}-error`} />
    </search>
  );
}
