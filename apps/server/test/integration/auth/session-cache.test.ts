import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { Db } from '../../../src/persistence/db.ts';
import { createLocalEventBus } from '../../../src/realtime/event-bus.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';
import { registerViaApi, testConfig } from '../../helpers/test-app.ts';

// Issue 15: a read reuses a session its node checked within the last second (no database round
// trip); a change always checks the database; a session ended or a user changed on one node is
// seen by the other's next read at once (the bus), or within the second if the news is lost.
// Two apps on one database and one bus stand for two nodes.
describe('the session cache of reads, across two nodes', () => {
  let testDb: TestDb;
  let sessionLookups = 0;
  const bus = createLocalEventBus();
  let nodeA: Awaited<ReturnType<typeof buildApp>>;
  let nodeB: Awaited<ReturnType<typeof buildApp>>;

  /** The database as node B sees it, counting its session lookups. */
  function counting(db: Db): Db {
    return new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver);
        return (sql: string, params?: readonly unknown[]) => {
          if (/FROM sessions s JOIN users u/.test(sql)) sessionLookups += 1;
          return target.query(sql, params);
        };
      },
    });
  }

  beforeAll(async () => {
    testDb = await createTestDb();
    const config = testConfig({ WEB_DIST_DIR: '/nonexistent', ADMIN_DIST_DIR: '/nonexistent', SESSION_CACHE_TTL_MS: '1000' });
    nodeA = await buildApp({ config, db: testDb.db, events: bus });
    nodeB = await buildApp({ config, db: counting(testDb.db), events: bus });
    await Promise.all([nodeA.ready(), nodeB.ready()]);
  });
  afterAll(async () => {
    await nodeA.close();
    await nodeB.close();
    await bus.close();
    await testDb.dispose();
  });

  const read = (node: typeof nodeA, token: string, url = '/home/assets/accounts') => node.inject({ url, headers: { authorization: `Bearer ${token}` } });

  it('a read reuses the session checked a moment ago; a change checks the database', async () => {
    const { token } = await registerViaApi(nodeA, 'cacheuser1');
    sessionLookups = 0;
    expect((await read(nodeB, token)).statusCode).toBe(200);
    expect((await read(nodeB, token)).statusCode).toBe(200);
    expect((await read(nodeB, token, '/home/user/unread')).statusCode).toBe(200);
    expect(sessionLookups).toBe(1);

    // Suspended behind the app's back (no node told): a change is refused at once ...
    await testDb.db.query(`UPDATE users SET status = 'suspended' WHERE username = 'cacheuser1'`);
    const change = await nodeB.inject({ method: 'PUT', url: '/home/user/nickname', headers: { authorization: `Bearer ${token}` }, payload: { nickname: 'Late' } });
    expect(change.json()).toMatchObject({ code: 400, msg: 'user status incorrect' });
    // ... and a read within the second at the latest.
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect((await read(nodeB, token)).json()).toMatchObject({ code: 400, msg: 'user status incorrect' });
  });

  it('a logout on one node: the other node refuses the token at its next read', async () => {
    const { token } = await registerViaApi(nodeA, 'cacheuser2');
    expect((await read(nodeB, token)).statusCode).toBe(200);
    const logout = await nodeA.inject({ method: 'POST', url: '/home/auth/logout', headers: { authorization: `Bearer ${token}` } });
    expect(logout.statusCode).toBe(200);
    expect((await read(nodeB, token)).json()).toMatchObject({ code: 401 });
  });

  it('a change on one node shows in the other node’s next read', async () => {
    const { token } = await registerViaApi(nodeA, 'cacheuser3');
    expect((await read(nodeB, token, '/home/user/me')).json()).toMatchObject({ data: { nickname: null } });
    const change = await nodeA.inject({ method: 'PUT', url: '/home/user/nickname', headers: { authorization: `Bearer ${token}` }, payload: { nickname: 'Fresh' } });
    expect(change.statusCode).toBe(200);
    expect((await read(nodeB, token, '/home/user/me')).json()).toMatchObject({ data: { nickname: 'Fresh' } });
  });
});
