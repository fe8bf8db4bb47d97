import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './providers.tsx';
import { router } from './router.tsx';

// The first render as a transition: React renders it in slices of a few milliseconds, yielding to
// the browser between them, instead of one long task that would hold input and the network's
// callbacks (Lighthouse's total blocking time; issue 14).
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
