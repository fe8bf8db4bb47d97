import { Link } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';

/** The agreement that must be accepted before login or registration (spec section 5). */
export function AgreementCheckbox({ checked, onChange, error }: { checked: boolean; onChange: (checked: boolean) => void; error?: string }) {
  const { t, tRich } = useI18n();
  return (
    <div className={error ? 'checkbox-field has-error' : 'checkbox-field'}>
      <label className="checkbox">
        <input type="checkbox" data-testid="agreement" checked={checked} onChange={(event) => onChange(event.target.checked)} />
        <span>
          {tRich('web.agreement.accept', {
            agreement: (
              <Link key="agreement" to="/agreement">
                {t('web.agreement.agreementLink')}
              </Link>
            ),
            terms: (
              <Link key="terms" to="/terms">
                {t('web.agreement.termsLink')}
              </Link>
            ),
          })}
        </span>
      </label>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
