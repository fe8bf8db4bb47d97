import { ChangePasswordPage as ChangePassword } from '../../../features/settings/ChangePasswordPage.tsx';
import { PayPasswordPage as PayPassword } from '../../../features/settings/PayPasswordPage.tsx';
import { SettingsPage as Settings } from '../../../features/settings/SettingsPage.tsx';

/** /person/setting */
export function SettingPage() {
  return <Settings />;
}

/** /person/setting/changepassword */
export function ChangePasswordPage() {
  return <ChangePassword />;
}

/** /person/setting/paypassword */
export function PayPasswordPage() {
  return <PayPassword />;
}
