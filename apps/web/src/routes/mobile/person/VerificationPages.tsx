import { AdvancedForm, IdentityForm } from '../../../features/verification/VerificationForms.tsx';
import { VerificationCentre } from '../../../features/verification/VerificationCentre.tsx';

/** /person/authentication: the verification centre. */
export function AuthenticationPage() {
  return <VerificationCentre />;
}

/** /person/identity and /my/identity: the identity verification form. */
export function IdentityPage() {
  return <IdentityForm />;
}

/** /person/advanced: the advanced verification form. */
export function AdvancedPage() {
  return <AdvancedForm />;
}
