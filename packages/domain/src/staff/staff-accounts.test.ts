import { describe, expect, it } from 'vitest';
import { normaliseRoles, oneTimePasswordExpiresAtMs, staffChangeRefusal, staffSetupStep } from './staff-accounts.ts';

describe('staff first-login steps', () => {
  it('asks for the own password first, then the authenticator, then nothing', () => {
    expect(staffSetupStep({ passwordOneTime: true, totpEnrolled: false })).toBe('set_password');
    // A reset after enrolment clears the authenticator too, but the password still comes first.
    expect(staffSetupStep({ passwordOneTime: true, totpEnrolled: true })).toBe('set_password');
    expect(staffSetupStep({ passwordOneTime: false, totpEnrolled: false })).toBe('enrol_totp');
    expect(staffSetupStep({ passwordOneTime: false, totpEnrolled: true })).toBeNull();
  });

  it('a one-time password expires the published number of hours after it was issued', () => {
    expect(oneTimePasswordExpiresAtMs(Date.UTC(2026, 10, 24, 12), 72)).toBe(Date.UTC(2026, 10, 27, 12));
  });

  it('roles are kept without repeats in the published order', () => {
    const all = ['admin', 'compliance', 'finance', 'support', 'content', 'merchant'] as const;
    expect(normaliseRoles(['support', 'finance', 'support'], all)).toEqual(['finance', 'support']);
    expect(normaliseRoles([], all)).toEqual([]);
  });
});

describe('changes to staff accounts', () => {
  const admin = (id: number) => BigInt(id);
  const demoted = { roles: ['finance'], active: true };
  const disabledAdmin = { roles: ['admin'], active: false };
  const stillAdmin = { roles: ['admin', 'finance'], active: true };

  it('nobody changes their own account, whatever the change', () => {
    for (const after of [demoted, disabledAdmin, stillAdmin]) {
      expect(staffChangeRefusal({ actorId: 1n, targetId: 1n, after, activeAdminIds: [1n, 2n, 3n] })).toBe('own_account');
    }
  });

  it('the last active admin cannot be demoted or disabled', () => {
    expect(staffChangeRefusal({ actorId: 2n, targetId: 1n, after: demoted, activeAdminIds: [admin(1)] })).toBe('last_active_admin');
    expect(staffChangeRefusal({ actorId: 2n, targetId: 1n, after: disabledAdmin, activeAdminIds: [admin(1)] })).toBe('last_active_admin');
    // The same change with another active admin left is fine.
    expect(staffChangeRefusal({ actorId: 2n, targetId: 1n, after: demoted, activeAdminIds: [admin(1), admin(2)] })).toBeUndefined();
  });

  it('changes that keep an active admin are allowed', () => {
    // The target keeps the role (a reset, or roles widened).
    expect(staffChangeRefusal({ actorId: 2n, targetId: 1n, after: stillAdmin, activeAdminIds: [admin(1)] })).toBeUndefined();
    // A non-admin changes while an admin remains.
    expect(staffChangeRefusal({ actorId: 1n, targetId: 5n, after: { roles: ['support'], active: false }, activeAdminIds: [admin(1)] })).toBeUndefined();
    // Re-enabling an admin adds one.
    expect(staffChangeRefusal({ actorId: 1n, targetId: 4n, after: stillAdmin, activeAdminIds: [admin(1)] })).toBeUndefined();
  });
});
