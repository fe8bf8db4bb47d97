import { termsOfService, userAgreement } from '../../../features/legal/documents.ts';
import { LegalDocumentView } from '../../../features/legal/LegalDocumentView.tsx';

/** /agreement */
export function AgreementPage() {
  return <LegalDocumentView document={userAgreement} />;
}

/** /terms */
export function TermsPage() {
  return <LegalDocumentView document={termsOfService} />;
}
