import { helpCategorySchema, listStaffContentContract } from '@keel/contracts';
import type { ReactNode } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { FieldErrorText } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractQuery } from '../../shared/queries.ts';
import { firstError } from './content-form.ts';
import { type ContentKind, type SettingName, type SettingsFormValues, settingsOf } from './content-model.ts';

/** An empty choice or text is "none" (no category, no course, no link). */
const emptyAsNull = (value: unknown) => (value === '' || value === undefined ? null : value);

/**
 * The settings a kind has, as fields of a form holding `SettingsFormValues` at its top level (the
 * editor's settings form and "new item"): a help article's category, a lesson's course (picked
 * from the courses), the order in its list, a news item's markets, a banner's in-app link, and the
 * sample label of industry news. Fields of other kinds are not drawn.
 */
export function SettingsFields({
  kind,
  idPrefix,
  register,
  errors,
  excludeId,
}: {
  kind: ContentKind;
  idPrefix: string;
  register: UseFormRegister<SettingsFormValues>;
  errors: FieldErrors<SettingsFormValues>;
  /** The item being edited, never its own course. */
  excludeId?: string;
}) {
  const { t } = useI18n();
  const has = new Set(settingsOf(kind));
  const courses = useContractQuery(listStaffContentContract, { query: { kind: 'course', page: 1, pageSize: 100 } }, { enabled: has.has('parentId'), staleTime: 0 });

  const id = (name: SettingName) => `${idPrefix}-${name}`;
  const described = (name: SettingName, hint: boolean) => ({
    id: id(name),
    'aria-describedby': hint ? `${id(name)}-hint ${id(name)}-error` : `${id(name)}-error`,
    'aria-invalid': firstError(errors[name]) ? true : undefined,
  });
  const field = (name: SettingName, label: string, input: ReactNode, hint?: string) => (
    <div className="form-field" key={name}>
      <label htmlFor={id(name)}>{label}</label>
      {input}
      {hint && (
        <p className="muted hint" id={`${id(name)}-hint`}>
          {hint}
        </p>
      )}
      <FieldErrorText error={firstError(errors[name])} id={`${id(name)}-error`} />
    </div>
  );

  if (has.size === 0) return <p className="muted">{t('admin.content.settings.none')}</p>;
  return (
    <div className="form-grid">
      {has.has('category') &&
        field(
          'category',
          t('admin.content.settings.category'),
          <select required {...described('category', false)} {...register('category', { setValueAs: emptyAsNull })}>
            <option value="">{t('admin.content.settings.choose')}</option>
            {helpCategorySchema.options.map((category) => (
              <option key={category} value={category}>
                {t(`admin.content.category.${category}`)}
              </option>
            ))}
          </select>,
        )}
      {has.has('parentId') &&
        field(
          'parentId',
          t('admin.content.settings.course'),
          <select required aria-busy={courses.isPending} {...described('parentId', true)} {...register('parentId', { setValueAs: emptyAsNull })}>
            <option value="">{t(courses.isPending ? 'admin.loading' : 'admin.content.settings.choose')}</option>
            {courses.data?.items
              .filter((course) => course.id !== excludeId)
              .map((course) => (
                <option key={course.id} value={course.id}>
                  {course.title} (#{course.id})
                </option>
              ))}
          </select>,
          courses.data?.items.length === 0 ? t('admin.content.settings.noCourses') : t('admin.content.settings.courseHint'),
        )}
      {has.has('sortOrder') &&
        field(
          'sortOrder',
          t('admin.content.settings.order'),
          <input type="number" inputMode="numeric" min={0} max={100000} step={1} {...described('sortOrder', true)} {...register('sortOrder')} />,
          t('admin.content.settings.orderHint'),
        )}
      {has.has('marketSymbols') &&
        field(
          'marketSymbols',
          t('admin.content.settings.markets'),
          <input autoComplete="off" dir="ltr" {...described('marketSymbols', true)} {...register('marketSymbols')} />,
          t('admin.content.settings.marketsHint'),
        )}
      {has.has('linkPath') &&
        field(
          'linkPath',
          t('admin.content.settings.link'),
          <input autoComplete="off" dir="ltr" maxLength={200} {...described('linkPath', true)} {...register('linkPath', { setValueAs: emptyAsNull })} />,
          t('admin.content.settings.linkHint'),
        )}
      {has.has('sample') && (
        <div className="form-field" key="sample">
          <label className="check">
            <input type="checkbox" aria-describedby={`${id('sample')}-hint`} {...register('sample')} />
            {t('admin.content.settings.sample')}
          </label>
          <p className="muted hint" id={`${id('sample')}-hint`}>
            {t('admin.content.settings.sampleHint')}
          </p>
        </div>
      )}
      <ErrorAlert error={courses.error} />
    </div>
  );
}
