/**
 * Staff accounts (issue 13, ADR 0020): the pure rules. Staff are created by an admin with a
 * one-time password; before anything else they set their own password and enrol an authenticator
 * (TOTP). An admin may change others' roles and state, never their own, and the platform always
 * keeps at least one active admin.
 */

/** The role that manages staff. */
export const ADMIN_ROLE = 'admin';

/** What a staff member must still do before any staff call other than the first-login steps works. */
export type StaffSetupStep = 'set_password' | 'enrol_totp';

/** The first step still missing, or null once the member is set up. The password comes first. */
export function staffSetupStep(staff: { passwordOneTime: boolean; totpEnrolled: boolean }): StaffSetupStep | null {
  if (staff.passwordOneTime) return 'set_password';
  if (!staff.totpEnrolled) return 'enrol_totp';
  return null;
}

/** When a one-time password issued at `issuedAtMs` stops working. */
export function oneTimePasswordExpiresAtMs(issuedAtMs: number, ttlHours: number): number {
  return issuedAtMs + ttlHours * 3_600_000;
}

/** Roles without repeats, in the order of `allRoles` (so stored and shown roles read the same way). */
export function normaliseRoles<Role extends string>(roles: readonly Role[], allRoles: readonly Role[]): Role[] {
  return allRoles.filter((role) => roles.includes(role));
}

export interface StaffState {
  roles: readonly string[];
  active: boolean;
}

export interface StaffChange {
  /** Who acts (an admin). */
  actorId: bigint;
  /** Whose account changes. */
  targetId: bigint;
  /** The target's state after the change (its roles and whether it is active). */
  after: StaffState;
  /** Every active admin right now (read under lock), the target included if it is one. */
  activeAdminIds: readonly bigint[];
}

export type StaffChangeRefusal = 'own_account' | 'last_active_admin';

const isActiveAdmin = (state: StaffState) => state.active && state.roles.includes(ADMIN_ROLE);

/**
 * Why a change to a staff account (roles, disabling, a password reset) is refused, or undefined.
 * Nobody changes their own account this way: an admin could otherwise lock themselves out or
 * quietly widen their own access. And no change may leave the platform without an active admin:
 * the last one cannot be disabled or lose the role. (With the first rule only two admins acting on
 * each other at the same moment could reach the second; the caller reads the admins under a lock.)
 */
export function staffChangeRefusal(change: StaffChange): StaffChangeRefusal | undefined {
  if (change.actorId === change.targetId) return 'own_account';
  const othersActiveAdmins = change.activeAdminIds.filter((id) => id !== change.targetId).length;
  if (othersActiveAdmins + (isActiveAdmin(change.after) ? 1 : 0) === 0) return 'last_active_admin';
  return undefined;
}
