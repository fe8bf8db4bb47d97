import type { ReactNode } from 'react';
import { I18nProvider } from '../shared/i18n/I18nProvider.tsx';
import { ToastProvider } from '../shared/ui/toast.tsx';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nProvider>
      <ToastProvider>{children}</ToastProvider>
    </I18nProvider>
  );
}
