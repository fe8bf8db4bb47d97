import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
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
      mkdirSync(join(root, app, '.vite'));
      writeFileSync(join(root, app, '.vite', 'manifest.json'), '{}');
      // What the build writes beside each file (vite-plugin-compression2): its brotli and gzip twins.
      for (const file of ['index.html', '_app/main.js']) {
        const bytes = readFileSync(join(root, app, file));
        writeFileSync(join(root, app, `${file}.br`), brotliCompressSync(bytes));
        writeFileSync(join(root, app, `${file}.gz`), gzipSync(bytes));
      }
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

  // The back-office's URLs (ADR 0028): every view, record and filtered list is a deep link.
  it.each([
    '/admin',
    '/admin/',
    '/admin/users',
    '/admin/users?q=alice',
    '/admin/withdrawals/42?status=approved&channel=USDT-TRC20&user=bob.smith&page=2',
    '/admin/appeals/7',
    '/admin/staff/3',
    '/admin/me/sessions',
  ])('answers the back-office for %s', async (url) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('ADMIN APP');
  });

  it('serves built files (not the build manifest), and a missing file is a 404 envelope, not a page', async () => {
    expect((await t.app.inject({ url: '/_app/main.js' })).body).toContain('WEB APP');
    expect((await t.app.inject({ url: '/admin/_app/main.js' })).body).toContain('ADMIN APP');
    for (const url of ['/.vite/manifest.json', '/admin/.vite/manifest.json']) expect((await t.app.inject({ url })).statusCode).toBe(404);
    const missing = await t.app.inject({ url: '/_app/nope.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 404, msg: 'request address does not exist', data: null });
  });

  it('never answers an unknown API path with a page', async () => {
    expect((await t.app.inject({ url: '/home/unknown' })).json()).toMatchObject({ code: 404 });
  });

  describe('compression and caching (ADR 0025)', () => {
    const decoded = (response: { rawPayload: Buffer; headers: Record<string, unknown> }) => {
      const encoding = response.headers['content-encoding'];
      if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString();
      if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString();
      return response.rawPayload.toString();
    };

    it.each([
      ['/_app/main.js', 'WEB APP'],
      ['/admin/_app/main.js', 'ADMIN APP'],
    ])('serves %s as its build-time twin per Accept-Encoding, cached for a year', async (url, marker) => {
      for (const [accept, encoding] of [
        ['br, gzip, deflate', 'br'],
        ['gzip', 'gzip'],
        [undefined, undefined],
      ] as const) {
        const response = await t.app.inject({ url, headers: accept ? { 'accept-encoding': accept } : {} });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBe(encoding);
        expect(response.headers['content-type']).toMatch(/javascript/);
        expect(response.headers.vary).toMatch(/accept-encoding/i);
        expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(decoded(response)).toBe(`console.log('${marker}')`);
      }
    });

    it.each(['/', '/index', '/assets/recharge', '/admin', '/admin/users'])(
      'answers %s (index.html, also as the SPA fallback) compressed and revalidated every time',
      async (url) => {
        const first = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
        expect(first.statusCode).toBe(200);
        expect(first.headers['content-encoding']).toBe('br');
        expect(first.headers.vary).toMatch(/accept-encoding/i);
        expect(first.headers['cache-control']).toBe('no-cache');
        expect(decoded(first)).toContain(url.startsWith('/admin') ? 'ADMIN APP' : 'WEB APP');
        expect(first.headers['last-modified']).toBeTruthy();
        const etag = first.headers.etag;
        expect(etag).toBeTruthy();
        // The browser revalidates with the ETag and gets "not modified" while the build is the same.
        const again = await t.app.inject({ url, headers: { 'accept-encoding': 'br', 'if-none-match': String(etag) } });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');
      },
    );

    it('compresses API answers over 1 KiB, not small ones, and never inflates a request body', async () => {
      const large = await t.app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'br, gzip' } });
      expect(large.headers['content-encoding']).toBe('br');
      expect(large.headers.vary).toMatch(/accept-encoding/i);
      expect(JSON.parse(decoded(large))).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
      const gzip = await t.app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(decoded(gzip))).toEqual(JSON.parse(decoded(large)));

      const small = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.json()).toMatchObject({ code: 200 });

      const zipped = await t.app.inject({
        method: 'POST',
        url: '/home/auth/login',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: gzipSync(JSON.stringify({ account: 'nobody', password: 'secret12', agreement: true })),
      });
      expect(zipped.json()).toMatchObject({ code: 400, msg: 'parameter error' });
    });
  });
});
