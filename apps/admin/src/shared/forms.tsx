import type { Contract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { type FieldError, type FieldValues, type UseFormProps, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { contractResolver, type FieldMessages, readFieldMessage } from './form-messages.ts';
import { useI18n } from './i18n.tsx';

export { type FieldMessages, fieldMessage } from './form-messages.ts';

/** A contract's body schema, which every form is built from (a contract without one has no form). */
export function bodyOf<C extends Contract>(contract: C): NonNullable<C['body']> {
  if (!contract.body) throw new Error(`${contract.id} takes no body`);
  return contract.body as NonNullable<C['body']>;
}

/**
 * A form checked by a contract's schema. The browser's own checks are off (`noValidate` on the
 * form) so every message is in the staff member's language; `required`, `maxLength` and the like
 * stay on the inputs for assistive technology and the browser's hints.
 */
export function useContractForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver'> & { messages?: FieldMessages } = {},
) {
  const { messages, ...rest } = options;
  return useForm<Input, unknown, Output>({ ...rest, resolver: contractResolver(schema, messages) });
}

/** An empty text field means "not given" (an optional filter, an optional code). */
export const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/** A field's error in the staff member's language, announced; `id` is what the input's aria-describedby names. */
export function FieldErrorText({ error, id }: { error: FieldError | undefined; id: string }) {
  const { t } = useI18n();
  if (!error) return null;
  const message = readFieldMessage(error.message) ?? { key: 'admin.form.invalid' as MessageKey };
  return (
    <p className="error field-error" role="alert" id={id}>
      {t(message.key, message.vars)}
    </p>
  );
}
