import { allContracts, type Contract, staffRoles } from '@keel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../../src/deps.ts';
import { seedDemoData } from '../../../src/seed/demo.ts';
import { resetStaffFromCommandLine, setStaffActive, setStaffRoles } from '../../../src/use-cases/admin/manage-staff.ts';
import { resolveStaffSession } from '../../../src/use-cases/admin/staff-auth.ts';
import { createStaff, createTestApp, staffTotpCode, type TestApp } from '../../helpers/test-app.ts';

// Staff accounts and roles (issue 13, ADR 0020): admins create staff with roles and a one-time
// password, change roles, disable, re-enable and reset; every member sets their own password and
// enrols an authenticator before any other staff call works; sessions are listed and revoked; the
// last active admin stays one; every action is in the audit log with its target.

type Answer<T = unknown> = { code: number; msg: string; data: T };

const HOUR_MS = 3_600_000;
let t: TestApp;
let nowMs = Date.UTC(2026, 10, 24, 9, 0, 0);
let adminToken: string;
let adminId: string;

/** Moves the app's clock past the current 30 s TOTP step, so the next code is a new one. */
const nextStep = () => {
  nowMs += 31_000;
};
const codeNow = (secret?: string) => staffTotpCode(new Date(nowMs), secret);

async function api<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | null, body?: unknown): Promise<Answer<T>> {
  const response = await t.app.inject({
    method,
    url,
    headers: { 'user-agent': 'StaffTest/1.0', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
  return response.json() as Answer<T>;
}

const login = (username: string, password: string, totpCode?: string) =>
  api<{ token: string; staff: { setupStep: string | null } }>('POST', '/home/admin/auth/login', null, { username, password, totpCode });

async function auditOf(action: string, targetId: string) {
  return t.db.query<{ staff_id: bigint | null; detail: Record<string, unknown> }>(
    'SELECT staff_id, detail FROM audit_log WHERE action = $1 AND target_type = $2 AND target_id = $3 ORDER BY id',
    [action, 'staff', targetId],
  );
}

/** An admin creates `username` with `roles`; answers the account and its one-time password. */
async function createByAdmin(username: string, roles: string[]) {
  const created = await api<{ staff: { id: string }; oneTimePassword: string; expiresAt: string }>('POST', '/home/admin/staff', adminToken, {
    username,
    roles,
  });
  expect(created.code, created.msg).toBe(200);
  return created.data;
}

/** A member created by the admin, through every first-login step; answers their token and secret. */
async function setUpMember(username: string, roles: string[], password = 'my own pass 1') {
  const created = await createByAdmin(username, roles);
  const first = await login(username, created.oneTimePassword);
  const token = first.data.token;
  expect((await api('POST', '/home/admin/me/password', token, { currentPassword: created.oneTimePassword, newPassword: password })).code).toBe(200);
  const setup = await api<{ secret: string }>('POST', '/home/admin/me/totp/setup', token);
  expect((await api('POST', '/home/admin/me/totp/enable', token, { code: codeNow(setup.data.secret) })).code).toBe(200);
  return { id: created.staff.id, token, password, secret: setup.data.secret };
}

beforeAll(async () => {
  t = await createTestApp({ STAFF_ONE_TIME_PASSWORD_TTL_HOURS: '72' }, { now: () => new Date(nowMs) });
  adminToken = await createStaff(t.app, t.db, 'chiefadmin', ['admin']);
  adminId = (await api<{ id: string }>('GET', '/home/admin/me', adminToken)).data.id;
});
afterAll(() => t?.close());

describe('creating staff accounts', () => {
  it('an admin creates an account with roles; the one-time password is answered once, stored only hashed, and expires in 72 h', async () => {
    // The same role twice is refused: each role at most once.
    expect(await api('POST', '/home/admin/staff', adminToken, { username: 'auditor.one', roles: ['support', 'support'] })).toMatchObject({ code: 400 });
    const answer = await createByAdmin('auditor.one', ['support', 'compliance']);
    expect(answer.oneTimePassword.length).toBeGreaterThanOrEqual(16);
    expect(new Date(answer.expiresAt).getTime()).toBe(nowMs + 72 * HOUR_MS);
    expect(answer.staff).toMatchObject({
      username: 'auditor.one',
      roles: ['compliance', 'support'],
      active: true,
      setupStep: 'set_password',
      oneTimePasswordExpiresAt: answer.expiresAt,
      createdBy: 'chiefadmin',
      activeSessions: 0,
    });
    const [row] = await t.db.query<{ password_hash: string; password_one_time: boolean }>('SELECT password_hash, password_one_time FROM staff WHERE id = $1', [
      answer.staff.id,
    ]);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_one_time).toBe(true);
    // The clear password is nowhere in the database: not in the row, not in the audit entry.
    const [everything] = await t.db.query<{ text: string }>(
      `SELECT (SELECT string_agg(s::text, ' ') FROM staff s) || (SELECT string_agg(a::text, ' ') FROM audit_log a) AS text`,
    );
    expect(everything!.text).toContain('auditor.one');
    expect(everything!.text).not.toContain(answer.oneTimePassword);
    expect(await auditOf('staff.created', answer.staff.id)).toMatchObject([
      { staff_id: BigInt(adminId), detail: { username: 'auditor.one', roles: ['compliance', 'support'] } },
    ]);
    // The list shows it with its roles and state.
    const list = await api<{ items: { username: string }[]; total: number }>('GET', '/home/admin/staff?q=AUDITOR', adminToken);
    expect(list.data.items.map((item) => item.username)).toEqual(['auditor.one']);
  });

  it('refuses a taken name (in any case), a bad name, no role or an unknown role', async () => {
    await createByAdmin('dupname', ['finance']);
    expect(await api('POST', '/home/admin/staff', adminToken, { username: 'DupName', roles: ['finance'] })).toMatchObject({ code: 400, msg: 'username already registered' });
    for (const body of [
      { username: 'ab', roles: ['finance'] },
      { username: 'nul\u0000name', roles: ['finance'] },
      { username: 'fine.name', roles: [] },
      { username: 'fine.name', roles: ['root'] },
    ]) {
      expect(await api('POST', '/home/admin/staff', adminToken, body)).toMatchObject({ code: 400, msg: 'parameter error' });
    }
  });

  it('only admins manage staff', async () => {
    const financeToken = await createStaff(t.app, t.db, 'financeonly1', ['finance']);
    expect(await api('GET', '/home/admin/staff', financeToken)).toMatchObject({ code: 403, msg: 'permission denied' });
    expect(await api('POST', '/home/admin/staff', financeToken, { username: 'sneaky1', roles: ['admin'] })).toMatchObject({ code: 403 });
    expect(await api('PUT', `/home/admin/staff/${adminId}/roles`, financeToken, { roles: ['finance'] })).toMatchObject({ code: 403 });
    expect(await api('GET', `/home/admin/staff/${adminId}/sessions`, financeToken)).toMatchObject({ code: 403 });
    expect(await t.db.query(`SELECT 1 FROM staff WHERE username = 'sneaky1'`)).toHaveLength(0);
  });
});

describe('first login', () => {
  it('a one-time password reaches only the first-login steps: own password, then authenticator, then everything the roles allow', async () => {
    const { staff, oneTimePassword } = await createByAdmin('newfinance', ['finance']);
    const first = await login('newfinance', oneTimePassword);
    expect(first).toMatchObject({ code: 200, data: { staff: { setupStep: 'set_password' } } });
    const token = first.data.token;
    expect(await api('GET', '/home/admin/deposits', token)).toMatchObject({ code: 403, msg: 'set your own password first' });
    expect(await api('GET', '/home/admin/me/sessions', token)).toMatchObject({ code: 403, msg: 'set your own password first' });
    expect(await api('POST', '/home/admin/me/totp/setup', token)).toMatchObject({ code: 403, msg: 'set your own password first' });
    expect(await api('GET', '/home/admin/me', token)).toMatchObject({ code: 200, data: { setupStep: 'set_password' } });

    const setPassword = (currentPassword: string, newPassword: string) => api('POST', '/home/admin/me/password', token, { currentPassword, newPassword });
    expect(await setPassword('not it at all', 'my own pass 1')).toMatchObject({ code: 400, msg: 'wrong original password' });
    expect(await setPassword(oneTimePassword, oneTimePassword)).toMatchObject({ code: 400, msg: 'the new password must differ from the current one' });
    expect(await setPassword(oneTimePassword, 'short1')).toMatchObject({ code: 400, msg: 'parameter error' });
    expect(await setPassword(oneTimePassword, 'my own pass 1')).toMatchObject({ code: 200 });
    // The one-time password is gone; the own one works and asks for the next step.
    expect(await login('newfinance', oneTimePassword)).toMatchObject({ code: 400, msg: 'account or password incorrect' });
    expect(await api('GET', '/home/admin/deposits', token)).toMatchObject({ code: 403, msg: 'enrol two-step login first' });

    const setup = await api<{ secret: string; otpauthUri: string }>('POST', '/home/admin/me/totp/setup', token);
    expect(setup.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.data.otpauthUri).toContain(`secret=${setup.data.secret}`);
    expect(setup.data.otpauthUri).toContain('newfinance');
    const wrong = codeNow(setup.data.secret) === '000000' ? '111111' : '000000';
    expect(await api('POST', '/home/admin/me/totp/enable', token, { code: wrong })).toMatchObject({ code: 400, msg: 'wrong verification code' });
    expect(await api('POST', '/home/admin/me/totp/enable', token, { code: codeNow(setup.data.secret) })).toMatchObject({ code: 200 });
    expect(await api('POST', '/home/admin/me/totp/setup', token)).toMatchObject({ code: 409, msg: 'two-step login already enrolled' });

    // Set up: the roles decide from here.
    expect(await api('GET', '/home/admin/deposits', token)).toMatchObject({ code: 200 });
    expect(await api('GET', '/home/admin/audit', token)).toMatchObject({ code: 403, msg: 'permission denied' });
    expect(await auditOf('staff.password.set', staff.id)).toMatchObject([{ staff_id: BigInt(staff.id), detail: { wasOneTime: true } }]);
    expect(await auditOf('staff.totp.enrolled', staff.id)).toHaveLength(1);
  });

  it('every staff call but the first-login steps refuses a member who is not set up, naming the missing step', async () => {
    const { oneTimePassword } = await createByAdmin('sweepadmin', [...staffRoles]);
    const token = (await login('sweepadmin', oneTimePassword)).data.token;
    const steps = (allContracts as readonly Contract[]).filter((contract) => contract.caller === 'staff');
    const open = steps.filter((contract) => contract.staffSetupStep).map((contract) => contract.id);
    expect(open.sort()).toEqual(['admin.logout', 'admin.me', 'admin.me.password', 'admin.me.totp.enable', 'admin.me.totp.setup'].sort());
    for (const contract of steps.filter((each) => !each.staffSetupStep)) {
      const url = contract.path.replaceAll(/:[A-Za-z]+/g, '1');
      const answer = await api(contract.method, url, token, contract.method === 'GET' ? undefined : {});
      expect(answer, contract.id).toMatchObject({ code: 403, msg: 'set your own password first' });
    }
    expect((await api('POST', '/home/admin/me/password', token, { currentPassword: oneTimePassword, newPassword: 'sweep pass 12' })).code).toBe(200);
    for (const contract of steps.filter((each) => !each.staffSetupStep)) {
      const url = contract.path.replaceAll(/:[A-Za-z]+/g, '1');
      const answer = await api(contract.method, url, token, contract.method === 'GET' ? undefined : {});
      expect(answer, contract.id).toMatchObject({ code: 403, msg: 'enrol two-step login first' });
    }
    // Nothing was changed by any of those calls.
    expect(await t.db.query(`SELECT 1 FROM audit_log WHERE staff_id = (SELECT id FROM staff WHERE username = 'sweepadmin') AND action <> 'staff.login' AND action <> 'staff.password.set'`)).toHaveLength(0);
  });

  it('after enrolment login needs a current code; a wrong or replayed code is refused', async () => {
    const member = await setUpMember('codeuser', ['support']);
    nextStep();
    expect(await login('codeuser', member.password)).toMatchObject({ code: 400, msg: 'two-step code required' });
    const wrong = codeNow(member.secret) === '123456' ? '654321' : '123456';
    expect(await login('codeuser', member.password, wrong)).toMatchObject({ code: 400, msg: 'wrong verification code' });
    // A wrong password with the right code says nothing about the code.
    expect(await login('codeuser', 'wrong password 1', codeNow(member.secret))).toMatchObject({ code: 400, msg: 'account or password incorrect' });
    const code = codeNow(member.secret);
    const ok = await login('codeuser', member.password, code);
    expect(ok).toMatchObject({ code: 200, data: { staff: { setupStep: null } } });
    expect(await login('codeuser', member.password, code)).toMatchObject({ code: 400, msg: 'wrong verification code' });
    const sessions = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM staff_sessions WHERE staff_id = $1`,
      [member.id],
    );
    // The first login (one-time password) and the one with the right code; refusals open none.
    expect(sessions[0]!.n).toBe(2);
  });

  it('a wrong authenticator code counts as a failed login (the staff login lock of ADR 0018)', async () => {
    const member = await setUpMember('guessedcode', ['finance']);
    nextStep();
    const right = codeNow(member.secret);
    const wrongCodes = ['000000', '111111', '222222', '333333'].filter((code) => code !== right).slice(0, 3);
    for (const code of wrongCodes) expect(await login('guessedcode', member.password, code)).toMatchObject({ code: 400, msg: 'wrong verification code' });
    // Three failures are free; the fourth attempt, even with the right code, waits.
    expect(await login('guessedcode', member.password, right)).toMatchObject({ code: 429 });
    nowMs += 2_000;
    expect(await login('guessedcode', member.password, codeNow(member.secret))).toMatchObject({ code: 200 });
  });

  it('a one-time password expires after the published time', async () => {
    const { oneTimePassword, expiresAt } = await createByAdmin('latecomer', ['content']);
    const saved = nowMs;
    nowMs = new Date(expiresAt).getTime();
    expect(await login('latecomer', oneTimePassword)).toMatchObject({ code: 400, msg: 'one-time password expired' });
    // A wrong password still gets the answer that reveals nothing.
    expect(await login('latecomer', 'not the password')).toMatchObject({ code: 400, msg: 'account or password incorrect' });
    nowMs = saved;
    expect(await login('latecomer', oneTimePassword)).toMatchObject({ code: 200 });
  });

  it('the seeded first admin takes the same first-login steps with the printed password', async () => {
    const seedApp = await createTestApp({}, { now: () => new Date(nowMs) });
    try {
      const seeded = await seedDemoData(seedApp.db, new Date(nowMs), 72);
      expect(seeded.staff?.expiresAt.getTime()).toBe(nowMs + 72 * HOUR_MS);
      const answer = (await seedApp.app.inject({ method: 'POST', url: '/home/admin/auth/login', payload: { username: 'admin', password: seeded.staff!.password } })).json() as Answer<{ token: string }>;
      expect(answer).toMatchObject({ code: 200, data: { staff: { roles: ['admin'], setupStep: 'set_password' } } });
      const users = (await seedApp.app.inject({ url: '/home/admin/staff', headers: { authorization: answer.data.token } })).json() as Answer;
      expect(users).toMatchObject({ code: 403, msg: 'set your own password first' });
      // The operator's way back in: a new one-time password from the command line, audited.
      const reset = await resetStaffFromCommandLine(seedApp.db, { username: 'admin', ttlHours: 72, now: new Date(nowMs) });
      expect(reset?.oneTimePassword).toBeDefined();
      expect((await seedApp.app.inject({ url: '/home/admin/me', headers: { authorization: answer.data.token } })).json()).toMatchObject({ code: 401 });
      const again = (await seedApp.app.inject({ method: 'POST', url: '/home/admin/auth/login', payload: { username: 'admin', password: reset!.oneTimePassword } })).json();
      expect(again).toMatchObject({ code: 200, data: { staff: { setupStep: 'set_password' } } });
      expect(await seedApp.db.query(`SELECT 1 FROM audit_log WHERE action = 'staff.password.reset' AND staff_id IS NULL`)).toHaveLength(1);
    } finally {
      await seedApp.close();
    }
  });
});

describe('roles, disabling and resets', () => {
  it('a role change applies to open sessions at once and is audited with from and to', async () => {
    const member = await setUpMember('rolechange', ['finance']);
    expect(await api('GET', '/home/admin/deposits', member.token)).toMatchObject({ code: 200 });
    const changed = await api('PUT', `/home/admin/staff/${member.id}/roles`, adminToken, { roles: ['support'] });
    expect(changed).toMatchObject({ code: 200, data: { roles: ['support'] } });
    expect(await api('GET', '/home/admin/deposits', member.token)).toMatchObject({ code: 403 });
    expect(await api('GET', '/home/admin/notifications', member.token)).toMatchObject({ code: 200 });
    expect(await auditOf('staff.roles.set', member.id)).toMatchObject([{ detail: { from: ['finance'], to: ['support'] } }]);
  });

  it('an admin cannot change their own roles, disable or reset themselves', async () => {
    expect(await api('PUT', `/home/admin/staff/${adminId}/roles`, adminToken, { roles: ['admin', 'finance'] })).toMatchObject({
      code: 403,
      msg: 'you cannot change your own staff account',
    });
    expect(await api('POST', `/home/admin/staff/${adminId}/disable`, adminToken)).toMatchObject({ code: 403, msg: 'you cannot change your own staff account' });
    expect(await api('POST', `/home/admin/staff/${adminId}/password-reset`, adminToken)).toMatchObject({ code: 403 });
    expect(await api('GET', '/home/admin/me', adminToken)).toMatchObject({ code: 200, data: { roles: ['admin'] } });
  });

  it('disabling ends the sessions at once and refuses logins; enabling lets the member back in', async () => {
    const member = await setUpMember('leaver01', ['support']);
    nextStep();
    const second = (await login('leaver01', member.password, codeNow(member.secret))).data.token;
    const disabled = await api('POST', `/home/admin/staff/${member.id}/disable`, adminToken);
    expect(disabled).toMatchObject({ code: 200, data: { active: false, activeSessions: 0 } });
    for (const token of [member.token, second]) expect(await api('GET', '/home/admin/me', token)).toMatchObject({ code: 401 });
    nextStep();
    expect(await login('leaver01', member.password, codeNow(member.secret))).toMatchObject({ code: 400, msg: 'account or password incorrect' });
    expect(await auditOf('staff.disabled', member.id)).toMatchObject([{ detail: { sessionsEnded: 2 } }]);

    expect(await api('POST', `/home/admin/staff/${member.id}/enable`, adminToken)).toMatchObject({ code: 200, data: { active: true } });
    nextStep();
    expect(await login('leaver01', member.password, codeNow(member.secret))).toMatchObject({ code: 200 });
    expect(await auditOf('staff.enabled', member.id)).toHaveLength(1);
  });

  it('a reset issues a new one-time password, ends the sessions and resets the authenticator', async () => {
    const member = await setUpMember('forgetful', ['finance']);
    const reset = await api<{ oneTimePassword: string; staff: { setupStep: string } }>('POST', `/home/admin/staff/${member.id}/password-reset`, adminToken);
    expect(reset).toMatchObject({ code: 200, data: { staff: { setupStep: 'set_password', activeSessions: 0 } } });
    expect(await api('GET', '/home/admin/me', member.token)).toMatchObject({ code: 401 });
    nextStep();
    expect(await login('forgetful', member.password, codeNow(member.secret))).toMatchObject({ code: 400, msg: 'account or password incorrect' });
    // No code asked: the old authenticator is gone, a new one is enrolled after the new password.
    const fresh = await login('forgetful', reset.data.oneTimePassword);
    expect(fresh).toMatchObject({ code: 200, data: { staff: { setupStep: 'set_password' } } });
    await api('POST', '/home/admin/me/password', fresh.data.token, { currentPassword: reset.data.oneTimePassword, newPassword: 'another pass 2' });
    expect(await api('GET', '/home/admin/me', fresh.data.token)).toMatchObject({ data: { setupStep: 'enrol_totp' } });
    expect(await auditOf('staff.password.reset', member.id)).toMatchObject([{ staff_id: BigInt(adminId), detail: { authenticatorReset: true, sessionsEnded: 1 } }]);
  });

  it('unknown staff ids are "not found"; ids out of range are a parameter error', async () => {
    expect(await api('POST', '/home/admin/staff/999999/disable', adminToken)).toMatchObject({ code: 404 });
    expect(await api('PUT', '/home/admin/staff/99999999999999999999/roles', adminToken, { roles: ['finance'] })).toMatchObject({ code: 400 });
  });
});

describe('the last active admin', () => {
  /** Use cases called directly with sessions resolved first, as two requests in flight at once would hold them. */
  const deps = () => ({ db: t.db, config: t.config, now: () => new Date(nowMs) }) as unknown as Deps;

  it('two admins removing each other at the same moment: one wins, the other is refused and an admin remains', async () => {
    for (const [index, change] of (['demote', 'disable'] as const).entries()) {
      // Only these two are admins: the others are demoted first (and restored after).
      const a = await setUpMember(`rivala${index}`, ['admin']);
      const b = await setUpMember(`rivalb${index}`, ['admin']);
      const others = await t.db.query<{ id: bigint }>(`SELECT id FROM staff WHERE 'admin' = ANY (roles) AND active AND id NOT IN ($1, $2)`, [a.id, b.id]);
      await t.db.query(`UPDATE staff SET roles = ARRAY['support'] WHERE id = ANY ($1)`, [others.map((row) => row.id)]);
      try {
        const [sessionA, sessionB] = await Promise.all([resolveStaffSession(deps(), a.token), resolveStaffSession(deps(), b.token)]);
        const act = (actor: typeof sessionA, target: string) =>
          change === 'demote'
            ? setStaffRoles(deps(), actor, { staffId: BigInt(target), roles: ['finance'] })
            : setStaffActive(deps(), actor, { staffId: BigInt(target), active: false });
        const results = await Promise.allSettled([act(sessionA, b.id), act(sessionB, a.id)]);
        expect(results.filter((result) => result.status === 'fulfilled'), change).toHaveLength(1);
        const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
        expect(refused.reason).toMatchObject({ key: 'LAST_ACTIVE_ADMIN' });
        const admins = await t.db.query(`SELECT id FROM staff WHERE active AND 'admin' = ANY (roles)`);
        expect(admins).toHaveLength(1);
      } finally {
        await t.db.query(`UPDATE staff SET roles = ARRAY['admin'] WHERE id = ANY ($1)`, [others.map((row) => row.id)]);
      }
    }
  });

  it('a just-demoted admin whose request is already in flight can no longer act', async () => {
    const other = await setUpMember('demotedsoon', ['admin']);
    const target = await setUpMember('bystander1', ['finance']);
    const session = await resolveStaffSession(deps(), other.token);
    expect((await api('PUT', `/home/admin/staff/${other.id}/roles`, adminToken, { roles: ['support'] })).code).toBe(200);
    await expect(setStaffActive(deps(), session, { staffId: BigInt(target.id), active: false })).rejects.toMatchObject({ key: 'PERMISSION_DENIED' });
  });
});

describe('sessions', () => {
  it('each member sees and ends their own sessions, with address, browser and last use', async () => {
    const member = await setUpMember('sessionful', ['content']);
    nextStep();
    const other = (await login('sessionful', member.password, codeNow(member.secret))).data.token;
    nowMs += 2 * 60_000;
    const mine = await api<{ items: { id: string; current: boolean; clientIp: string; userAgent: string; lastSeenAt: string }[] }>(
      'GET',
      '/home/admin/me/sessions',
      member.token,
    );
    expect(mine.data.items).toHaveLength(2);
    const current = mine.data.items.find((item) => item.current)!;
    expect(current).toMatchObject({ clientIp: '127.0.0.1', userAgent: 'StaffTest/1.0', lastSeenAt: new Date(nowMs).toISOString() });
    const otherSession = mine.data.items.find((item) => !item.current)!;
    // Someone else's session through one's own route is "not found" and stays open.
    const adminSessions = await api<{ items: { id: string }[] }>('GET', `/home/admin/staff/${adminId}/sessions`, adminToken);
    expect(await api('DELETE', `/home/admin/me/sessions/${adminSessions.data.items[0]!.id}`, member.token)).toMatchObject({ code: 404 });
    expect(await api('GET', '/home/admin/me', adminToken)).toMatchObject({ code: 200 });

    expect(await api('DELETE', `/home/admin/me/sessions/${otherSession.id}`, member.token)).toMatchObject({ code: 200 });
    expect(await api('GET', '/home/admin/me', other)).toMatchObject({ code: 401 });
    expect(await api('GET', '/home/admin/me', member.token)).toMatchObject({ code: 200 });
    expect(await auditOf('staff.session.revoked', member.id)).toMatchObject([{ staff_id: BigInt(member.id), detail: { sessionId: otherSession.id, own: true } }]);
  });

  it("an admin sees and revokes anyone's session; the member is logged out at once", async () => {
    const member = await setUpMember('revokeme', ['finance']);
    const theirs = await api<{ items: { id: string; current: boolean }[] }>('GET', `/home/admin/staff/${member.id}/sessions`, adminToken);
    expect(theirs.data.items).toHaveLength(1);
    expect(theirs.data.items[0]!.current).toBe(false);
    expect(await api('DELETE', `/home/admin/staff/${member.id}/sessions/${theirs.data.items[0]!.id}`, adminToken)).toMatchObject({ code: 200 });
    expect(await api('GET', '/home/admin/me', member.token)).toMatchObject({ code: 401 });
    // A session id of another member under this member's path is "not found".
    const adminSessions = await api<{ items: { id: string }[] }>('GET', `/home/admin/staff/${adminId}/sessions`, adminToken);
    expect(await api('DELETE', `/home/admin/staff/${member.id}/sessions/${adminSessions.data.items[0]!.id}`, adminToken)).toMatchObject({ code: 404 });
    expect(await auditOf('staff.session.revoked', member.id)).toMatchObject([{ staff_id: BigInt(adminId), detail: { own: false } }]);
  });
});

describe('the audit log', () => {
  it('holds every kind of staff action, each with its target staff id', async () => {
    const rows = await t.db.query<{ action: string; target_id: string | null }>(
      `SELECT DISTINCT action, target_id FROM audit_log WHERE action LIKE 'staff.%' AND action <> 'staff.login'`,
    );
    const actions = new Set(rows.map((row) => row.action));
    for (const action of [
      'staff.created',
      'staff.roles.set',
      'staff.disabled',
      'staff.enabled',
      'staff.password.reset',
      'staff.password.set',
      'staff.totp.enrolled',
      'staff.session.revoked',
    ]) {
      expect(actions, action).toContain(action);
    }
    expect(rows.every((row) => row.target_id !== null && /^\d+$/.test(row.target_id))).toBe(true);
  });
});
