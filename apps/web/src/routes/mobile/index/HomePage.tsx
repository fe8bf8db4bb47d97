import { HomeOverview } from '../../../features/home/HomeOverview.tsx';

/** /index: the home tab (features/home). */
export function HomePage() {
  return <HomeOverview />;
}
