import type { MessageKey } from '@keel/locales';
import type { ReactNode } from 'react';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { PageHeader } from '../../shared/ui/components.tsx';
import { AntiPhishingForm } from './AntiPhishingForm.tsx';
import { BindContactForm } from './BindContactForm.tsx';
import { ContactMethodsForm } from './ContactMethodsForm.tsx';
import { NicknameForm } from './NicknameForm.tsx';
import { SessionsList } from './SessionsList.tsx';
import { TotpSettings } from './TotpSettings.tsx';
import { WalletConnectSettings } from '../wallet-connect/WalletConnectSettings.tsx';
import '../auth/auth.css';

/**
 * The types of /safeSetting/{type} (spec section 2 names the route, not its types):
 * email and phone (bind or change with a code), nickname (once), antiphishing, contact (P2P
 * contact methods), sessions (active devices), totp (two-step login) and wallet (wallet connect by
 * a signed message, ADR 0047).
 */
export const safeSettingTypes = ['email', 'phone', 'nickname', 'antiphishing', 'contact', 'sessions', 'totp', 'wallet'] as const;
export type SafeSettingType = (typeof safeSettingTypes)[number];

const pages: Record<SafeSettingType, { title: MessageKey; body: () => ReactNode }> = {
  email: { title: 'web.settings.email', body: () => <BindContactForm channel="email" /> },
  phone: { title: 'web.settings.phone', body: () => <BindContactForm channel="sms" /> },
  nickname: { title: 'web.settings.nickname', body: () => <NicknameForm /> },
  antiphishing: { title: 'web.settings.antiPhishing', body: () => <AntiPhishingForm /> },
  contact: { title: 'web.settings.contactMethods', body: () => <ContactMethodsForm /> },
  sessions: { title: 'web.settings.sessions', body: () => <SessionsList /> },
  totp: { title: 'web.settings.totp', body: () => <TotpSettings /> },
  wallet: { title: 'web.settings.wallet', body: () => <WalletConnectSettings /> },
};

export function isSafeSettingType(value: string | undefined): value is SafeSettingType {
  return value !== undefined && (safeSettingTypes as readonly string[]).includes(value);
}

export function SafeSettingPage({ type }: { type: SafeSettingType }) {
  const { t } = useI18n();
  const page = pages[type];
  return (
    <div className="page page-narrow">
      <PageHeader title={t(page.title)} backTo="/person/setting" />
      {page.body()}
    </div>
  );
}
