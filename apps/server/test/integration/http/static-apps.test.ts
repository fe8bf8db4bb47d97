import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Both apps are single-page apps: every spec route is a deep link that must answer the app's page.
describe('serving the two apps', () => {
  let t: TestApp;
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'keel-dist-'));
    for (const [app, marker] of [
      ['web', 'WEB APP'],
      ['admin', 'ADMIN APP'],
    ] as const) {
      mkdirSync(join(root, app, '_app'), { recursive: true });
      writeFileSync(join(root, app, 'index.html'), `<!doctype html><title>${marker}</title>`);
      writeFileSync(join(root, app, '_app', 'main.js'), `console.log('${marker}')`);
    }
    t = await createTestApp({ WEB_DIST_DIR: join(root, 'web'), ADMIN_DIST_DIR: join(root, 'admin') });
  });
  afterAll(() => t.close());

  it.each(['/', '/index', '/login?redirect=%2Fmy', '/assets/recharge', '/assets/card/1', '/news/OrderDeyail', '/trade_12'])(
    'answers the user app for %s',
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('WEB APP');
    },
  );

  it.each(['/admin', '/admin/', '/admin/users'])('answers the back-office for %s', async (url) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('ADMIN APP');
  });

  it('serves built files, and a missing file is a 404 envelope, not a page', async () => {
    expect((await t.app.inject({ url: '/_app/main.js' })).body).toContain('WEB APP');
    expect((await t.app.inject({ url: '/admin/_app/main.js' })).body).toContain('ADMIN APP');
    const missing = await t.app.inject({ url: '/_app/nope.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 404, msg: 'request address does not exist', data: null });
  });

  it('never answers an unknown API path with a page', async () => {
    expect((await t.app.inject({ url: '/home/unknown' })).json()).toMatchObject({ code: 404 });
  });
});
