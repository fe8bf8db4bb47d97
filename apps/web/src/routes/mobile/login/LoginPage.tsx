import { LoginForm } from '../../../features/auth/LoginForm.tsx';

/** /login and /loginaccount (spec section 2): by phone, e-mail or username and password. */
export function LoginPage() {
  return <LoginForm />;
}
