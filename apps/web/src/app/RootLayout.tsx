import { Outlet, ScrollRestoration } from 'react-router';
import { ParticleBackground } from '../features/particles/ParticleBackground.tsx';
import { ServiceFab } from '../features/service-fab/ServiceFab.tsx';

/** What every page shares: the particle background behind it and the customer-service button above it. */
export function RootLayout() {
  return (
    <>
      <ParticleBackground />
      <div className="app-frame">
        <Outlet />
      </div>
      <ServiceFab />
      <ScrollRestoration />
    </>
  );
}
