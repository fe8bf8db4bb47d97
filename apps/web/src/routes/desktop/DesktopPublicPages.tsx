import { ForgetForm } from '../../features/auth/ForgetForm.tsx';
import { LoginForm } from '../../features/auth/LoginForm.tsx';
import { RegisterForm } from '../../features/auth/RegisterForm.tsx';
import { HelpCentre } from '../../features/content/HelpCentre.tsx';
import { termsOfService, userAgreement } from '../../features/legal/documents.ts';
import { LegalDocumentView } from '../../features/legal/LegalDocumentView.tsx';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';

/**
 * The desktop site's public pages (issue 21, ADR 0048): the mobile pages' feature parts in the
 * desktop frame (DesktopLayout), a form in a centred column, a document or the help centre in a wider one.
 */

/** /web/index/login */
export function DesktopLoginPage() {
  return (
    <div className="desktop-narrow" data-testid="desktop-page-login">
      <LoginForm />
    </div>
  );
}

/** /web/index/Register */
export function DesktopRegisterPage() {
  return (
    <div className="desktop-narrow" data-testid="desktop-page-register">
      <RegisterForm />
    </div>
  );
}

/** /web/index/Forget */
export function DesktopForgetPage() {
  return (
    <div className="desktop-narrow" data-testid="desktop-page-forget">
      <ForgetForm />
    </div>
  );
}

/** /web/index/Agreement */
export function DesktopAgreementPage() {
  return (
    <div className="desktop-reading" data-testid="desktop-page-agreement">
      <LegalDocumentView document={userAgreement} />
    </div>
  );
}

/** /web/index/Terms */
export function DesktopTermsPage() {
  return (
    <div className="desktop-reading" data-testid="desktop-page-terms">
      <LegalDocumentView document={termsOfService} />
    </div>
  );
}

/** /web/helpCenter/index: the help centre (search, categories, articles). */
export function DesktopHelpCentrePage() {
  const { t } = useI18n();
  return (
    <div className="desktop-reading page" data-testid="desktop-page-helpcenter">
      <h1 className="page-title">{t('web.content.help.title')}</h1>
      <HelpCentre />
    </div>
  );
}
