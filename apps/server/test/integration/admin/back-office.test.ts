import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

describe('back-office', () => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    adminToken = await createStaff(t.app, t.db, 'chiefadmin', ['admin']);
  });
  afterAll(() => t.close());
  const asAdmin = () => ({ authorization: `Bearer ${adminToken}` });

  it('keeps staff and users apart: a user token is no staff token and the reverse', async () => {
    const user = await registerViaApi(t.app, 'plainuser1');
    expect((await t.app.inject({ url: '/home/admin/me', headers: { authorization: user.token } })).json()).toMatchObject({ code: 401 });
    expect((await t.app.inject({ url: '/home/user/me', headers: asAdmin() })).json()).toMatchObject({ code: 401 });
  });

  it('lists users newest first, with a username filter', async () => {
    await registerViaApi(t.app, 'listme001');
    await registerViaApi(t.app, 'listme002');
    const response = await t.app.inject({ url: '/home/admin/users?q=listme&pageSize=10', headers: asAdmin() });
    const { data } = response.json() as { data: { items: { username: string }[]; total: number } };
    expect(data.total).toBe(2);
    expect(data.items.map((u) => u.username)).toEqual(['listme002', 'listme001']);
  });

  it('changes a user status with a reason, audited, and the user is logged out by it', async () => {
    const user = await registerViaApi(t.app, 'suspectuser');
    const change = await t.app.inject({
      method: 'PUT',
      url: `/home/admin/users/${user.userId}/status`,
      headers: asAdmin(),
      payload: { status: 'suspended', reason: 'chargeback investigation' },
    });
    expect(change.json()).toMatchObject({ code: 200, data: { status: 'suspended' } });
    expect((await t.app.inject({ url: '/home/user/unread', headers: { authorization: user.token } })).json()).toMatchObject({
      code: 400,
      msg: 'user status incorrect',
    });
    const audit = (await t.app.inject({ url: '/home/admin/audit', headers: asAdmin() })).json() as {
      data: { items: { action: string; targetId: string; staffUsername: string; detail: Record<string, unknown> }[] };
    };
    expect(audit.data.items[0]).toMatchObject({
      action: 'user.status.set',
      targetId: user.userId,
      staffUsername: 'chiefadmin',
      detail: { from: 'active', to: 'suspended', reason: 'chargeback investigation' },
    });
    expect(audit.data.items.some((entry) => entry.action === 'staff.login')).toBe(true);
  });

  it('the audit log cannot be changed or emptied, even with direct SQL', async () => {
    await expect(t.db.query(`UPDATE audit_log SET action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(t.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
  });

  it('staff logout ends the staff session', async () => {
    const token = await createStaff(t.app, t.db, 'leaving01', ['finance']);
    const auth = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ url: '/home/admin/me', headers: auth })).json()).toMatchObject({ code: 200, data: { roles: ['finance'] } });
    await t.app.inject({ method: 'POST', url: '/home/admin/auth/logout', headers: auth });
    expect((await t.app.inject({ url: '/home/admin/me', headers: auth })).json()).toMatchObject({ code: 401 });
  });

  it('refuses a wrong staff password without saying whether the name exists', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/home/admin/auth/login', payload: { username: 'chiefadmin', password: 'nope12' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/home/admin/auth/login', payload: { username: 'ghost', password: 'nope12' } });
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ code: 400, msg: 'account or password incorrect' });
  });
});
