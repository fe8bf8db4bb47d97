import './shared/zod-jitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers.tsx';
import { router } from './app/router.tsx';
import { applyDocumentLocale, initialLocale } from './shared/i18n/locale.ts';
import './styles/app.css';

// Before the first paint, so an Arabic reader never sees the page flip from left-to-right.
applyDocumentLocale(initialLocale());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
