import { listOwnStaffSessionsContract, STAFF_PASSWORD_MIN_LENGTH, setOwnStaffPasswordContract, staffMeContract } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';
import { z } from 'zod';
import { ErrorAlert } from '../../shared/ErrorAlert.tsx';
import { bodyOf, FieldErrorText, fieldMessage, useContractForm } from '../../shared/forms.tsx';
import { useI18n } from '../../shared/i18n.tsx';
import { useContractMutation } from '../../shared/queries.ts';

/** The contract's body and the repeat of the new password, which must match it. */
const passwordForm = bodyOf(setOwnStaffPasswordContract)
  .extend({ repeatPassword: z.string() })
  .refine((form) => form.newPassword === form.repeatPassword, { path: ['repeatPassword'], message: fieldMessage('error.PASSWORDS_INCONSISTENT') });

/**
 * Sets the staff member's own password with the current one (the one-time password on first
 * login). The contract's rule (length) and the repeat are checked before sending; the server
 * decides. Other sessions end, so the session list and the first-login step are read again.
 */
export function PasswordForm({ currentLabel, onDone, testId }: { currentLabel: MessageKey; onDone?: () => void; testId: string }) {
  const { t } = useI18n();
  const form = useContractForm(passwordForm, {
    defaultValues: { currentPassword: '', newPassword: '', repeatPassword: '' },
  });
  const { errors } = form.formState;
  const change = useContractMutation(setOwnStaffPasswordContract, {
    invalidates: [staffMeContract, listOwnStaffSessionsContract],
    onSuccess: () => {
      form.reset();
      onDone?.();
    },
  });
  const submit = form.handleSubmit(({ repeatPassword: _repeat, ...body }) => change.mutate({ body }));

  return (
    <form className="detail" onSubmit={submit} noValidate data-testid={testId}>
      <label>
        {t(currentLabel)}
        <input type="password" autoComplete="current-password" maxLength={128} required {...form.register('currentPassword')} />
      </label>
      <FieldErrorText error={errors.currentPassword} id={`${testId}-current-error`} />
      <label>
        {t('admin.password.new')}
        <input
          type="password"
          autoComplete="new-password"
          minLength={STAFF_PASSWORD_MIN_LENGTH}
          maxLength={128}
          required
          aria-describedby={`${testId}-rule ${testId}-new-error`}
          {...form.register('newPassword')}
        />
      </label>
      <p id={`${testId}-rule`} className="muted hint">
        {t('admin.password.rule', { min: STAFF_PASSWORD_MIN_LENGTH })}
      </p>
      <FieldErrorText error={errors.newPassword} id={`${testId}-new-error`} />
      <label>
        {t('admin.password.repeat')}
        <input type="password" autoComplete="new-password" maxLength={128} required aria-describedby={`${testId}-repeat-error`} {...form.register('repeatPassword')} />
      </label>
      <FieldErrorText error={errors.repeatPassword} id={`${testId}-repeat-error`} />
      <ErrorAlert error={change.error} />
      <button type="submit" disabled={change.isPending}>
        {t('admin.password.submit')}
      </button>
    </form>
  );
}
