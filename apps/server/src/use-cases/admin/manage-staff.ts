import { AppError, type StaffRole, staffRoles } from '@keel/contracts';
import { normaliseRoles, oneTimePasswordExpiresAtMs, type StaffState, staffChangeRefusal } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Db, Queryable } from '../../persistence/db.ts';
import {
  endStaffSessionById,
  endStaffSessions,
  findStaffAccount,
  listOpenStaffSessions,
  listStaffAccounts,
  type StaffRow,
  toStaffAccount,
  toStaffSessionView,
} from '../../persistence/staff.repository.ts';
import { hashPassword } from '../../security/passwords.ts';
import { newInitialPassword } from '../../security/tokens.ts';
import type { StaffSession } from './staff-auth.ts';

// Staff management by admins (issue 13, ADR 0020). Every change is one transaction with its audit
// entry (target: the staff member). Changes to an account lock every active admin first, so the
// "last active admin" rule counts what is committed even when two admins act on each other at once.

type AuditContext = { clientIp?: string; requestId?: string };

async function accountView(db: Queryable, staffId: bigint, now: Date) {
  const row = await findStaffAccount(db, staffId, now);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return toStaffAccount(row);
}

export async function listStaff(deps: Deps, query: { page: number; pageSize: number; q?: string }) {
  const { items, total } = await listStaffAccounts(deps.db, {
    fragment: query.q || undefined,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
    now: deps.now(),
  });
  return { items: items.map(toStaffAccount), total };
}

/**
 * A new one-time password, its hash and when it expires (`ttlHours`, the published lifetime, from
 * now): what every way of giving a member a password shares — an admin's create and reset, the
 * command line's reset and first admin, the demo seed.
 */
export async function issueOneTimePassword(ttlHours: number, now: Date) {
  const oneTimePassword = newInitialPassword();
  return {
    oneTimePassword,
    passwordHash: await hashPassword(oneTimePassword),
    expiresAt: new Date(oneTimePasswordExpiresAtMs(now.getTime(), ttlHours)),
  };
}

/** Creates a staff account with roles and a one-time password, answered once (only its hash is kept). */
export async function createStaffAccount(deps: Deps, actor: StaffSession, input: { username: string; roles: StaffRole[] } & AuditContext) {
  const now = deps.now();
  const issued = await issueOneTimePassword(deps.config.STAFF_ONE_TIME_PASSWORD_TTL_HOURS, now);
  const roles = normaliseRoles(input.roles, staffRoles);
  return deps.db.transaction(async (tx) => {
    // Either unique index (the name as typed, or case-insensitively) makes it "taken".
    const [created] = await tx.query<{ id: bigint }>(
      `INSERT INTO staff (username, password_hash, roles, password_one_time, password_expires_at, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, true, $4, $5, $6, $6) ON CONFLICT DO NOTHING RETURNING id`,
      [input.username, issued.passwordHash, roles, issued.expiresAt, actor.staff.id, now],
    );
    if (!created) throw new AppError('USERNAME_TAKEN');
    await appendAudit(tx, {
      staffId: actor.staff.id,
      action: 'staff.created',
      targetType: 'staff',
      targetId: created.id.toString(),
      detail: { username: input.username, roles, oneTimePasswordExpiresAt: issued.expiresAt.toISOString() },
      clientIp: input.clientIp,
      requestId: input.requestId,
      at: now,
    });
    return { staff: await accountView(tx, created.id, now), oneTimePassword: issued.oneTimePassword, expiresAt: issued.expiresAt.toISOString() };
  });
}

/**
 * Runs one change to another member's account: locks every active admin (in id order, the same
 * order for every change, so two changes never deadlock) and then the target, refuses a change to
 * one's own account or one that would leave no active admin, checks the actor is still an active
 * admin, and writes.
 */
async function changeStaffAccount<T>(
  deps: Deps,
  actor: StaffSession,
  targetId: bigint,
  after: (target: StaffRow) => StaffState,
  write: (tx: Queryable, target: StaffRow, now: Date) => Promise<T>,
): Promise<T> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const admins = await tx.query<{ id: bigint }>(`SELECT id FROM staff WHERE active AND 'admin' = ANY (roles) ORDER BY id FOR UPDATE`);
    const [target] = await tx.query<StaffRow>('SELECT * FROM staff WHERE id = $1 FOR UPDATE', [targetId]);
    if (!target) throw new AppError('RECORD_NOT_FOUND');
    const refusal = staffChangeRefusal({ actorId: actor.staff.id, targetId, after: after(target), activeAdminIds: admins.map((admin) => admin.id) });
    if (refusal === 'own_account') throw new AppError('OWN_STAFF_ACCOUNT');
    if (refusal === 'last_active_admin') throw new AppError('LAST_ACTIVE_ADMIN');
    // The session said "admin" when the call began; a change committed since may have ended that.
    if (!admins.some((admin) => admin.id === actor.staff.id)) throw new AppError('PERMISSION_DENIED');
    return write(tx, target, now);
  });
}

export async function setStaffRoles(deps: Deps, actor: StaffSession, input: { staffId: bigint; roles: StaffRole[] } & AuditContext) {
  const roles = normaliseRoles(input.roles, staffRoles);
  return changeStaffAccount(
    deps,
    actor,
    input.staffId,
    (target) => ({ roles, active: target.active }),
    async (tx, target, now) => {
      if (roles.join() !== target.roles.join()) {
        await tx.query('UPDATE staff SET roles = $2, updated_at = $3 WHERE id = $1', [target.id, roles, now]);
        await appendAudit(tx, {
          staffId: actor.staff.id,
          action: 'staff.roles.set',
          targetType: 'staff',
          targetId: target.id.toString(),
          detail: { username: target.username, from: target.roles, to: roles },
          clientIp: input.clientIp,
          requestId: input.requestId,
          at: now,
        });
      }
      return accountView(tx, target.id, now);
    },
  );
}

/** Disables or re-enables an account; disabling ends its sessions in the same transaction. */
export async function setStaffActive(deps: Deps, actor: StaffSession, input: { staffId: bigint; active: boolean } & AuditContext) {
  return changeStaffAccount(
    deps,
    actor,
    input.staffId,
    (target) => ({ roles: target.roles, active: input.active }),
    async (tx, target, now) => {
      if (target.active !== input.active) {
        await tx.query('UPDATE staff SET active = $2, updated_at = $3 WHERE id = $1', [target.id, input.active, now]);
        const sessionsEnded = input.active ? 0 : await endStaffSessions(tx, target.id, now);
        await appendAudit(tx, {
          staffId: actor.staff.id,
          action: input.active ? 'staff.enabled' : 'staff.disabled',
          targetType: 'staff',
          targetId: target.id.toString(),
          detail: input.active ? { username: target.username } : { username: target.username, sessionsEnded },
          clientIp: input.clientIp,
          requestId: input.requestId,
          at: now,
        });
      }
      return accountView(tx, target.id, now);
    },
  );
}

/**
 * A new one-time password for a member who lost their password or their authenticator: both are
 * replaced (they set a password and enrol again), and their sessions end.
 */
export async function resetStaffPassword(deps: Deps, actor: StaffSession, input: { staffId: bigint } & AuditContext) {
  const issued = await issueOneTimePassword(deps.config.STAFF_ONE_TIME_PASSWORD_TTL_HOURS, deps.now());
  return changeStaffAccount(
    deps,
    actor,
    input.staffId,
    (target) => ({ roles: target.roles, active: target.active }),
    async (tx, target, now) => {
      await tx.query(
        `UPDATE staff SET password_hash = $2, password_one_time = true, password_expires_at = $3,
           totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL, updated_at = $4
         WHERE id = $1`,
        [target.id, issued.passwordHash, issued.expiresAt, now],
      );
      const sessionsEnded = await endStaffSessions(tx, target.id, now);
      await appendAudit(tx, {
        staffId: actor.staff.id,
        action: 'staff.password.reset',
        targetType: 'staff',
        targetId: target.id.toString(),
        detail: {
          username: target.username,
          oneTimePasswordExpiresAt: issued.expiresAt.toISOString(),
          authenticatorReset: target.totp_secret !== null,
          sessionsEnded,
        },
        clientIp: input.clientIp,
        requestId: input.requestId,
        at: now,
      });
      return { staff: await accountView(tx, target.id, now), oneTimePassword: issued.oneTimePassword, expiresAt: issued.expiresAt.toISOString() };
    },
  );
}

/** A member's open sessions: an admin's view of anyone's, or a member's own (`current` marks the caller's). */
export async function listStaffSessions(deps: Deps, viewer: StaffSession, staffId: bigint) {
  const now = deps.now();
  const [exists] = await deps.db.query('SELECT 1 FROM staff WHERE id = $1', [staffId]);
  if (!exists) throw new AppError('RECORD_NOT_FOUND');
  const rows = await listOpenStaffSessions(deps.db, staffId, now);
  return { items: rows.map((row) => toStaffSessionView(row, viewer.tokenHash)) };
}

/**
 * Ends one session of `staffId` (an admin revoking anyone's, or a member their own); a session of
 * someone else is "not found", never ended. Audited with the member as target.
 */
export async function endStaffSession(deps: Deps, actor: StaffSession, input: { staffId: bigint; sessionId: bigint } & AuditContext) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    if (!(await endStaffSessionById(tx, input.staffId, input.sessionId, now))) throw new AppError('RECORD_NOT_FOUND');
    await appendAudit(tx, {
      staffId: actor.staff.id,
      action: 'staff.session.revoked',
      targetType: 'staff',
      targetId: input.staffId.toString(),
      detail: { sessionId: input.sessionId.toString(), own: input.staffId === actor.staff.id },
      clientIp: input.clientIp,
      requestId: input.requestId,
      at: now,
    });
  });
}

/**
 * The operator's way back in (`npm run staff:reset -- <username>`, run where the database is
 * reachable): a new one-time password for the named account, its authenticator reset, its sessions
 * ended and the account enabled. For when the only admin lost their password or phone, which no
 * admin can then fix. Audited as an action of the system (no staff member).
 */
export async function resetStaffFromCommandLine(db: Db, input: { username: string; ttlHours: number; now: Date }) {
  const { oneTimePassword, passwordHash, expiresAt } = await issueOneTimePassword(input.ttlHours, input.now);
  return db.transaction(async (tx) => {
    const [target] = await tx.query<StaffRow>('SELECT * FROM staff WHERE username = $1 FOR UPDATE', [input.username]);
    if (!target) return undefined;
    await tx.query(
      `UPDATE staff SET password_hash = $2, password_one_time = true, password_expires_at = $3, active = true,
         totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL, updated_at = $4
       WHERE id = $1`,
      [target.id, passwordHash, expiresAt, input.now],
    );
    const sessionsEnded = await endStaffSessions(tx, target.id, input.now);
    await appendAudit(tx, {
      staffId: null,
      action: 'staff.password.reset',
      targetType: 'staff',
      targetId: target.id.toString(),
      detail: { username: target.username, by: 'command line', oneTimePasswordExpiresAt: expiresAt.toISOString(), wasActive: target.active, sessionsEnded },
      at: input.now,
    });
    return { username: target.username, roles: target.roles, oneTimePassword, expiresAt };
  });
}

/**
 * The first admin of a deployment without demo data (`npm run staff:first -- <username>`, ADR 0041):
 * an admin account with a one-time password, created only while no staff account exists at all —
 * afterwards admins create members in the back-office, and `staff:reset` is the way back in. The
 * password goes to the operator's terminal once, never to the server's log. Audited as an action of
 * the system, as the demo seed's first admin is. Undefined when staff exist already.
 */
export async function createFirstStaffFromCommandLine(db: Db, input: { username: string; ttlHours: number; now: Date }) {
  const issued = await issueOneTimePassword(input.ttlHours, input.now);
  return db.transaction(async (tx) => {
    // The seed's lock: two first admins started at once cannot both see an empty table.
    await tx.query('LOCK TABLE staff IN EXCLUSIVE MODE');
    const existing = await tx.query('SELECT 1 FROM staff LIMIT 1');
    if (existing.length > 0) return undefined;
    const [created] = await tx.query<{ id: bigint }>(
      `INSERT INTO staff (username, password_hash, roles, password_one_time, password_expires_at, created_at, updated_at)
       VALUES ($1, $2, ARRAY['admin']::text[], true, $3, $4, $4) RETURNING id`,
      [input.username, issued.passwordHash, issued.expiresAt, input.now],
    );
    await appendAudit(tx, {
      staffId: null,
      action: 'staff.first.created',
      targetType: 'staff',
      targetId: created!.id.toString(),
      detail: { username: input.username, roles: ['admin'], by: 'command line', oneTimePasswordExpiresAt: issued.expiresAt.toISOString() },
      at: input.now,
    });
    return { username: input.username, oneTimePassword: issued.oneTimePassword, expiresAt: issued.expiresAt };
  });
}
