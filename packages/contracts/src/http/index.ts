import { loginContract, logoutContract, registerContract } from './auth/auth.contracts.ts';
import {
  listAuditContract,
  listUsersContract,
  setUserStatusContract,
  staffLoginContract,
  staffLogoutContract,
  staffMeContract,
} from './admin/admin.contracts.ts';
import { listAccountsContract, listRecordsContract, transferBetweenAccountsContract } from './assets/assets.contracts.ts';
import { serviceUrlContract } from './index/index.contracts.ts';
import { meContract, setLanguageContract, unreadContract } from './user/user.contracts.ts';

export * from './contract.ts';
export * from './common.ts';
export * from './auth/auth.contracts.ts';
export * from './user/user.contracts.ts';
export * from './index/index.contracts.ts';
export * from './admin/admin.contracts.ts';
export * from './assets/assets.contracts.ts';

/** Every call of the API; the server registers exactly these and the docs list exactly these. */
export const allContracts = [
  registerContract,
  loginContract,
  logoutContract,
  unreadContract,
  meContract,
  setLanguageContract,
  serviceUrlContract,
  staffLoginContract,
  staffLogoutContract,
  staffMeContract,
  listUsersContract,
  setUserStatusContract,
  listAuditContract,
  listAccountsContract,
  transferBetweenAccountsContract,
  listRecordsContract,
] as const;
