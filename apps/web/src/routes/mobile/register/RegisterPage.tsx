import { RegisterForm } from '../../../features/auth/RegisterForm.tsx';

/** /register (spec section 2): by phone, e-mail or username, with an invite code. */
export function RegisterPage() {
  return <RegisterForm />;
}
