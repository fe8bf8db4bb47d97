/**
 * Forms of the user app (ADR 0027): react-hook-form, validated by the zod schemas of
 * `packages/contracts` through @hookform/resolvers' zod resolver, so a rule lives in the contract
 * and the client shows the server's rule before sending. Errors are shown in the user's language,
 * never zod's English. The API, in full:
 *
 *   const schema = registerFields.pick({ phone: true, code: true })          // the contract's own schema,
 *     .extend({ confirm: secretText(128) })                                   // or a pick / extend of it
 *   const form = useContractForm(schema, { defaultValues: { phone: '', code: '', confirm: '' } });
 *   const field = useFieldProps(form);                                        // register + translated error
 *   <TextField label={t('…')} {...field('phone')} />                          // aria-invalid/-describedby as before
 *   <FormError form={form} />                                                 // the form-level notice (data-testid="form-error")
 *   <form onSubmit={form.handleSubmit(async (body) => {                       // body: the schema's output (trimmed…)
 *     try { await mutation.mutateAsync({ body }); }
 *     catch (error) { applyRefusal(form, error, { fieldErrors: { WRONG_PHONE_NUMBER: 'phone' } }); }
 *   })} noValidate>
 *
 * - `bodySchema(contract)`: a contract's body schema (typed, never undefined). zod cannot `.pick`
 *   or `.extend` an object that has a refinement: use the unrefined fields the contract exports
 *   (`registerFields`) or `.safeExtend`.
 * - `useContractForm(schema, options)`: `useForm` with the resolver; options as react-hook-form's
 *   (`defaultValues` for every field: refusals find a form's fields by them). The schema may change
 *   between renders (a tab, a field that becomes required): memoise it.
 * - `FormOf<Values>`: a form of those values, for parts shared between forms.
 * - `mustMatch(schema, field, confirmation)`: the confirmation field must equal the field, or
 *   "passwords inconsistent" (the catalogue's own refusal) shows on the confirmation.
 * - `useFieldProps(form)(name, registerOptions?)`: `register(name)` plus `error` (the translated
 *   text) for `TextField` and any input taking those props.
 * - `useErrorText()(fieldError)`: the translated text of one field error, for inputs bound with
 *   `Controller` (`SelectField`, checkboxes, custom pickers).
 * - `applyRefusal(form, error, { fieldErrors?, fields? })`: puts a refused call on the form: each
 *   "parameter error" field (`data.fields[].field` such as `body.amount`, or one named in `fields`)
 *   on its field with the rule it broke, a catalogue error listed in `fieldErrors` on that field,
 *   anything else in the form-level notice (`FormError`); a session error is left to the client's
 *   session rules. Handle refusals that need their own words (a wait, a lock) before calling it.
 * - `setFormNotice(form, text)`: an already translated form-level notice (such as a lock's end).
 *
 * How zod's issues become messages: `describeIssue` of `@keel/contracts` names each issue's rule
 * (the contracts' own messages by `validationMessages`, the rest by code and limits: required,
 * tooShort {minimum}, tooLong {maximum}, format, notANumber …); the message is `web.validation.<rule>`.
 * An empty text field is always "required". See `problems.ts` for the encoding.
 */
import { useCallback } from 'react';
import { type FieldError, type FieldPath, type FieldValues, get, type RegisterOptions } from 'react-hook-form';
import { useI18n } from '../i18n/I18nProvider.tsx';
import type { FormOf } from './contract-form.ts';
import { fieldTextOf } from './problems.ts';

export {
  applyRefusal,
  bodySchema,
  contractResolver,
  type FormOf,
  mustMatch,
  type RefusalOptions,
  setFormNotice,
  useContractForm,
} from './contract-form.ts';
export { FormError } from './FormError.tsx';

/** The translated text of a field error (or undefined when there is none). */
export function useErrorText(): (error: Pick<FieldError, 'message'> | undefined) => string | undefined {
  const { t, tServer } = useI18n();
  return useCallback(
    (error) => {
      if (!error?.message) return undefined;
      const text = fieldTextOf(error.message);
      return 'serverMsg' in text ? tServer(text.serverMsg) : t(text.key, text.values);
    },
    [t, tServer],
  );
}

/** `register(name, options)` and the field's translated `error`, to spread on a `TextField`. */
export function useFieldProps<T extends FieldValues>(form: FormOf<T>) {
  const errorText = useErrorText();
  const { register, formState } = form;
  return <N extends FieldPath<T>>(name: N, options?: RegisterOptions<T, N>) => ({
    ...register(name, options),
    error: errorText(get(formState.errors, name) as FieldError | undefined),
  });
}

