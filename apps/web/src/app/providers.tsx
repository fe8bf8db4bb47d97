import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../shared/api/queries.ts';
import { I18nProvider } from '../shared/i18n/I18nProvider.tsx';
import { ToastProvider } from '../shared/ui/toast.tsx';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <ToastProvider>{children}</ToastProvider>
      </I18nProvider>
    </QueryClientProvider>
  );
}
