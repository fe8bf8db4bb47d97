import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import { onSiteOf } from '../../app/desktop-paths.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';

/** The agreement that must be accepted before login or registration (spec section 5). */
export function AgreementCheckbox({ error, ...input }: UseFormRegisterReturn & { error?: string }) {
  const { t, tRich } = useI18n();
  const id = useId();
  // On the desktop site (ADR 0048) the documents open in its frame.
  const { pathname } = useLocation();
  return (
    <div className={error ? 'checkbox-field has-error' : 'checkbox-field'}>
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid="agreement"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...input}
        />
        <span>
          {tRich('web.agreement.accept', {
            agreement: (
              <Link key="agreement" to={onSiteOf(pathname, '/agreement')}>
                {t('web.agreement.agreementLink')}
              </Link>
            ),
            terms: (
              <Link key="terms" to={onSiteOf(pathname, '/terms')}>
                {t('web.agreement.termsLink')}
              </Link>
            ),
          })}
        </span>
      </label>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
