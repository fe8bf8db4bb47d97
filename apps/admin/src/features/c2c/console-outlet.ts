import { useOutletContext } from 'react-router';
import type { MerchantProfile } from './c2c-console.ts';

/** What the merchant console gives its tabs: the saved profile (null before the first save) and whether it is still loading. */
export type ConsoleOutlet = { profile: MerchantProfile | null; loading: boolean };

export function useConsole(): ConsoleOutlet {
  return useOutletContext<ConsoleOutlet>();
}
