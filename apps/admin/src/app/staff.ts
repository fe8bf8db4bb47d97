import type { ContractData, staffMeContract } from '@keel/contracts';
import { createContext, useContext } from 'react';

/** The logged-in staff member, as `GET /home/admin/me` names them (set up: no first-login step left). */
export type Staff = ContractData<typeof staffMeContract>;

export const StaffContext = createContext<Staff | null>(null);

/** The logged-in member, for the views the shell shows (only ever rendered inside it). */
export function useStaff(): Staff {
  const staff = useContext(StaffContext);
  if (!staff) throw new Error('useStaff outside the staff shell');
  return staff;
}
