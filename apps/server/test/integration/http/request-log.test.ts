import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';
import { registerViaApi, testConfig } from '../../helpers/test-app.ts';

// Issue 15: request logs at `info` stay useful (method, address, status, time, request id) but
// cost one line per request, not Fastify's two.
describe('request log', () => {
  let testDb: TestDb;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    testDb = await createTestDb();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const config = testConfig({ WEB_DIST_DIR: '/nonexistent', ADMIN_DIST_DIR: '/nonexistent' });
    app = await buildApp({ config, db: testDb.db, logger: { level: 'info', stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await testDb.dispose();
  });

  it('writes one line per request, with what was asked, the answer and the time it took', async () => {
    const { token } = await registerViaApi(app, 'loguser1');
    lines.length = 0;
    const read = await app.inject({ url: '/home/assets/accounts', headers: { authorization: `Bearer ${token}` } });
    const refused = await app.inject({ url: '/home/assets/accounts', headers: { authorization: 'Bearer nosuchtoken' } });
    expect(read.statusCode).toBe(200);
    expect(refused.statusCode).toBe(401);
    const ofRead = lines.filter((line) => line.reqId === read.headers['x-request-id']);
    const ofRefused = lines.filter((line) => line.reqId === refused.headers['x-request-id']);
    expect(ofRead).toEqual([
      expect.objectContaining({ level: 30, msg: 'request', method: 'GET', url: '/home/assets/accounts', statusCode: 200, responseTimeMs: expect.any(Number) }),
    ]);
    expect(ofRefused).toEqual([expect.objectContaining({ msg: 'request', statusCode: 401 })]);
    // The token is never written: the line names the address, not the headers.
    expect(JSON.stringify(lines)).not.toContain(token);
  });
});
