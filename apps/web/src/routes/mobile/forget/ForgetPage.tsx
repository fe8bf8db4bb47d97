import { ForgetForm } from '../../../features/auth/ForgetForm.tsx';

/** /forget (spec section 2): recovery by phone or e-mail with a code. */
export function ForgetPage() {
  return <ForgetForm />;
}
