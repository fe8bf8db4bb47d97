import { allContracts } from '@keel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

// Content (issue 20, ADR 0044): the lifecycle with translations and fallbacks, scheduling, search
// in the reader's language, the sanitiser on every field, public reads with ETags, and writes for
// the content role only. One app on a fresh database with a clock the test moves.

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as the API documents them.
type Answer = any;

let clockMs = Date.parse('2026-11-29T08:00:00Z');
let t: TestApp;
let editor: string;
let adminOnly: string;
let userToken: string;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(clockMs) });
  editor = await createStaff(t.app, t.db, 'editor1', ['content']);
  adminOnly = await createStaff(t.app, t.db, 'admin1', ['admin', 'support', 'finance', 'compliance', 'merchant']);
  userToken = (await registerViaApi(t.app, 'reader01')).token;
});
afterAll(() => t.close());

async function call(method: string, url: string, options: { token?: string; payload?: unknown; headers?: Record<string, string> } = {}) {
  const response = await t.app.inject({
    method: method as 'GET',
    url,
    payload: options.payload as object,
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
  });
  const body = response.body === '' ? undefined : (response.json() as { code: number; msg: string; data: Answer });
  return { status: response.statusCode, body, headers: response.headers };
}

async function create(kind: string, english: { title: string; summary?: string; body: string }, settings: Record<string, unknown> = {}) {
  const answer = await call('POST', '/home/admin/content/items', { token: editor, payload: { kind, english, ...settings } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body!.data as { id: string; status: string; missingLanguages: string[]; translations: { language: string; stale: boolean }[] };
}
const translate = (id: string, language: string, text: { title: string; summary?: string; body: string }) =>
  call('PUT', `/home/admin/content/items/${id}/translations/${language}`, { token: editor, payload: text });
const publish = (id: string, publishAtMs: number | null = null) =>
  call('POST', `/home/admin/content/items/${id}/publish`, { token: editor, payload: { publishAtMs } });
const read = (id: string, lang: string) => call('GET', `/home/content/items/${id}?lang=${lang}`);

describe('content lifecycle', () => {
  it('shows a published item in the reader’s language, or English marked as a fallback; drafts, scheduled and unpublished items are not shown', async () => {
    const item = await create('announcement', { title: 'Proof of liabilities, daily', summary: 'Check your balance is counted.', body: 'Every day we publish a **root**.' });
    expect(item.status).toBe('draft');
    expect(item.missingLanguages).toHaveLength(12);
    expect((await read(item.id, 'en')).status).toBe(404);

    expect((await translate(item.id, 'de', { title: 'Nachweis der Verbindlichkeiten', summary: 'Prüfen Sie Ihr Guthaben.', body: 'Jeden Tag veröffentlichen wir eine **Wurzel**.' })).status).toBe(200);
    expect((await translate(item.id, 'fr', { title: 'Preuve des passifs', body: 'Chaque jour, une **racine**.' })).status).toBe(200);
    expect((await publish(item.id)).body!.data.live).toBe(true);

    const german = (await read(item.id, 'de')).body!.data;
    expect(german).toMatchObject({ title: 'Nachweis der Verbindlichkeiten', language: 'de', fallback: false, body: 'Jeden Tag veröffentlichen wir eine **Wurzel**.' });
    expect(german.languages.sort()).toEqual(['de', 'en', 'fr']);
    expect((await read(item.id, 'fr-pro')).body!.data).toMatchObject({ title: 'Preuve des passifs', language: 'fr', fallback: false });
    expect((await read(item.id, 'ar')).body!.data).toMatchObject({ title: 'Proof of liabilities, daily', language: 'en', fallback: true });
    expect((await read(item.id, 'en')).body!.data).toMatchObject({ language: 'en', fallback: false });

    const list = (await call('GET', '/home/content/items?kind=announcement&lang=de')).body!.data;
    expect(list.items.map((i: { title: string }) => i.title)).toContain('Nachweis der Verbindlichkeiten');
    const home = (await call('GET', '/home/content/home?lang=ja')).body!.data;
    expect(home.announcements[0]).toMatchObject({ id: item.id, fallback: true });

    // English changes later: the German text is flagged as possibly out of date.
    clockMs += 60_000;
    await translate(item.id, 'en', { title: 'Proof of liabilities, every day', body: 'Every day we publish a **root hash**.' });
    const staffView = (await call('GET', `/home/admin/content/items/${item.id}`, { token: editor })).body!.data;
    expect(staffView.translations).toEqual(
      expect.arrayContaining([expect.objectContaining({ language: 'de', stale: true }), expect.objectContaining({ language: 'fr', stale: true })]),
    );
    await translate(item.id, 'de', { title: 'Nachweis der Verbindlichkeiten, täglich', body: 'Jeden Tag eine **Wurzel**.' });
    const afterRevision = (await call('GET', `/home/admin/content/items/${item.id}`, { token: editor })).body!.data;
    expect(afterRevision.translations.find((tr: { language: string }) => tr.language === 'de').stale).toBe(false);

    // Removing a language sends its readers to English, with the note.
    expect((await call('DELETE', `/home/admin/content/items/${item.id}/translations/fr`, { token: editor })).status).toBe(200);
    expect((await read(item.id, 'fr')).body!.data).toMatchObject({ language: 'en', fallback: true });
    expect((await call('DELETE', `/home/admin/content/items/${item.id}/translations/en`, { token: editor })).status).toBe(400);

    expect((await call('POST', `/home/admin/content/items/${item.id}/unpublish`, { token: editor })).body!.data.status).toBe('unpublished');
    expect((await read(item.id, 'de')).status).toBe(404);
    expect((await call('GET', '/home/content/items?kind=announcement&lang=de')).body!.data.items.map((i: { id: string }) => i.id)).not.toContain(item.id);

    const audit = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'content_item' AND target_id = $1 ORDER BY id`, [item.id]);
    expect(audit.map((a) => a.action)).toEqual([
      'content.created',
      'content.translated',
      'content.translated',
      'content.published',
      'content.translated',
      'content.translated',
      'content.untranslated',
      'content.unpublished',
    ]);
  });

  it('publishes a scheduled item when its time comes, not before', async () => {
    const item = await create('industry_news', { title: 'Sample: what a stablecoin is', body: '*Sample content.* A coin that tracks a currency.' }, { sample: true, marketSymbols: ['BTC/USDT'] });
    const scheduled = (await publish(item.id, clockMs + 3_600_000)).body!.data;
    expect(scheduled).toMatchObject({ status: 'published', live: false });
    expect((await read(item.id, 'en')).status).toBe(404);
    clockMs += 3_600_000;
    expect((await read(item.id, 'en')).body!.data).toMatchObject({ sample: true, marketSymbols: ['BTC/USDT'] });
    const audit = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_id = $1 AND action LIKE 'content.%' ORDER BY id`, [item.id]);
    expect(audit.map((a) => a.action)).toEqual(['content.created', 'content.scheduled']);
  });

  it('gives a course its lessons in order, and a lesson its course and neighbours', async () => {
    const course = await create('course', { title: 'First steps', body: 'Three lessons.' });
    const lessons = [];
    for (const [n, title] of ['Secure your account', 'Deposit', 'First swap'].entries()) {
      lessons.push(await create('lesson', { title, body: `Lesson ${n + 1}.` }, { parentId: course.id, sortOrder: 3 - n }));
    }
    for (const lesson of lessons) await publish(lesson.id);
    // Lessons of a course that is not live are not shown.
    expect((await read(lessons[0]!.id, 'en')).status).toBe(404);
    await publish(course.id);
    const shown = (await read(course.id, 'en')).body!.data;
    expect(shown.lessons.map((l: { title: string }) => l.title)).toEqual(['First swap', 'Deposit', 'Secure your account']);
    const middle = (await read(lessons[1]!.id, 'en')).body!.data;
    expect(middle.course).toEqual({ id: course.id, title: 'First steps', previousLessonId: lessons[2]!.id, nextLessonId: lessons[0]!.id });
    // A lesson must name a course.
    const orphan = await call('POST', '/home/admin/content/items', { token: editor, payload: { kind: 'lesson', parentId: lessons[0]!.id, english: { title: 'x', body: 'y' } } });
    expect(orphan.status).toBe(400);
  });

  it('serves the about page and help categories with counts', async () => {
    const about = await create('about', { title: 'About Keel', body: 'Open source, honest by construction.' });
    await publish(about.id);
    expect((await call('GET', '/home/content/about?lang=vi')).body!.data).toMatchObject({ title: 'About Keel', fallback: true });
    const help = await create('help', { title: 'Fees', body: 'Every fee.' }, { category: 'fees_limits' });
    await publish(help.id);
    const categories = (await call('GET', '/home/content/help/categories')).body!.data;
    expect(categories[0].category).toBe('getting_started');
    expect(categories.find((c: { category: string }) => c.category === 'fees_limits').articles).toBeGreaterThanOrEqual(1);
    const missingCategory = await call('POST', '/home/admin/content/items', { token: editor, payload: { kind: 'help', english: { title: 'x', body: 'y' } } });
    expect(missingCategory.status).toBe(400);
  });
});

describe('help centre search', () => {
  it('finds an article in the reader’s language (German, Arabic, Chinese) and not another language’s', async () => {
    const article = await create('help', { title: 'Withdrawal rules', summary: 'Limits per day.', body: 'Withdrawals to a **new address** wait 24 hours.' }, { category: 'wallet' });
    await translate(article.id, 'de', { title: 'Auszahlungsregeln', summary: 'Tageslimits.', body: 'Auszahlungen an eine **neue Adresse** warten 24 Stunden.' });
    await translate(article.id, 'ar', { title: 'قواعد السحب', summary: 'الحدود اليومية.', body: 'عمليات السحب إلى **عنوان جديد** تنتظر 24 ساعة.' });
    await translate(article.id, 'zh-Hans', { title: '提现规则', summary: '每日限额。', body: '提现到**新地址**需要等待24小时。' });
    await publish(article.id);
    const other = await create('help', { title: 'Swap', body: 'Swapping coins at a quoted rate.' }, { category: 'trading' });
    await publish(other.id);

    const search = async (lang: string, q: string) =>
      ((await call('GET', `/home/content/help/search?lang=${lang}&q=${encodeURIComponent(q)}`)).body!.data as { items: { id: string; language: string }[] }).items;

    expect((await search('en', 'withdrawals')).map((i) => i.id)).toEqual([article.id]);
    // Stemming: "Auszahlungen" finds the German article's "Auszahlungen"/"Auszahlungsregeln".
    expect((await search('de', 'Auszahlungen Adresse')).map((i) => [i.id, i.language])).toEqual([[article.id, 'de']]);
    expect((await search('ar', 'السحب')).map((i) => [i.id, i.language])).toEqual([[article.id, 'ar']]);
    expect((await search('zh-Hans', '提现')).map((i) => [i.id, i.language])).toEqual([[article.id, 'zh-Hans']]);
    expect((await search('zh-Hans', '新地址')).map((i) => i.id)).toEqual([article.id]);
    // Another language's words are not found: the German word in English, English in German or Arabic.
    expect(await search('en', 'Auszahlungen')).toEqual([]);
    expect(await search('de', 'withdrawals')).toEqual([]);
    expect(await search('ar', 'withdrawals')).toEqual([]);
    // Russian has no translation of it: nothing, rather than English results.
    expect(await search('ru', 'withdrawals')).toEqual([]);
  });
});

describe('the sanitiser', () => {
  const attacks = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '[x](javascript:alert(1))'];

  it('refuses script in every field, on create and on translate, and writes nothing', async () => {
    const before = await t.db.query<{ items: number; texts: number }>(
      'SELECT (SELECT count(*)::int FROM content_items) AS items, (SELECT count(*)::int FROM content_translations) AS texts',
    );
    const base = { title: 'Safe title', summary: 'Safe summary', body: 'Safe body' };
    const target = await create('help', base, { category: 'account_security' });
    const afterCreate = await t.db.query<{ items: number; texts: number }>(
      'SELECT (SELECT count(*)::int FROM content_items) AS items, (SELECT count(*)::int FROM content_translations) AS texts',
    );
    for (const field of ['title', 'summary', 'body'] as const) {
      for (const attack of attacks) {
        const created = await call('POST', '/home/admin/content/items', {
          token: editor,
          payload: { kind: 'help', category: 'account_security', english: { ...base, [field]: attack } },
        });
        expect(created.status, `${field}: ${attack}`).toBe(400);
        expect(created.body!.data.fields.map((f: { field: string }) => f.field).join()).toContain(field);
        const translated = await translate(target.id, 'it', { ...base, [field]: attack });
        expect(translated.status, `${field}: ${attack}`).toBe(400);
      }
    }
    const after = await t.db.query<{ items: number; texts: number }>(
      'SELECT (SELECT count(*)::int FROM content_items) AS items, (SELECT count(*)::int FROM content_translations) AS texts',
    );
    expect(before[0]!.items + 1).toBe(afterCreate[0]!.items);
    expect(after).toEqual(afterCreate);
  });
});

describe('who may call', () => {
  const contentContracts = allContracts.filter((c) => c.path.startsWith('/home/content/') || c.path.startsWith('/home/admin/content/'));
  const pathOf = (path: string) => path.replace(/:[a-zA-Z]+/g, (name) => (name === ':language' ? 'de' : '1'));

  it('answers every public content read without a token', async () => {
    const reads = contentContracts.filter((c) => c.caller === 'public');
    expect(reads.length).toBe(7);
    for (const contract of reads) {
      const query = contract.id === 'content.list' ? '?kind=help' : contract.id === 'content.search' ? '?q=fees' : '';
      const answer = await call(contract.method, `${pathOf(contract.path)}${query}`);
      // A missing item is "not found"; never "log in".
      expect([200, 404], `${contract.id}: ${answer.status}`).toContain(answer.status);
    }
  });

  it('refuses every write to users, to staff without the content role and to nobody', async () => {
    const writes = contentContracts.filter((c) => c.caller === 'staff');
    expect(writes.length).toBe(9);
    for (const contract of writes) {
      expect(contract.staffRoles, contract.id).toEqual(['content']);
      const url = pathOf(contract.path);
      expect((await call(contract.method, url)).status, contract.id).toBe(401);
      expect((await call(contract.method, url, { token: userToken })).status, contract.id).toBe(401);
      const staffAnswer = await call(contract.method, url, { token: adminOnly, payload: {} });
      expect([403], `${contract.id}: ${JSON.stringify(staffAnswer.body)}`).toContain(staffAnswer.status);
    }
  });
});

describe('caching', () => {
  it('answers with an ETag, 304 while nothing changed, and a new ETag after a change', async () => {
    const item = await create('help', { title: 'Cached', body: 'Version one.' }, { category: 'getting_started' });
    await publish(item.id);
    const first = await read(item.id, 'en');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await call('GET', `/home/content/items/${item.id}?lang=en`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    await translate(item.id, 'en', { title: 'Cached', body: 'Version two.' });
    const changed = await call('GET', `/home/content/items/${item.id}?lang=en`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body!.data.body).toBe('Version two.');
  });

  it('stores an uploaded image cleaned and serves it publicly, cached for good', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 90, b: 160 } } }).png().toBuffer();
    const upload = await t.app.inject({
      method: 'POST',
      url: '/home/admin/content/images',
      payload: png,
      headers: { authorization: `Bearer ${editor}`, 'content-type': 'image/png' },
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const { path } = upload.json().data as { path: string };
    expect(path).toMatch(/^\/home\/content\/images\/[0-9]+$/);
    const image = await t.app.inject({ method: 'GET', url: path });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Usable in Markdown once uploaded.
    const withImage = await create('help', { title: 'With image', body: `![screen](${path})` }, { category: 'wallet' });
    expect(withImage.id).toBeTruthy();
  });
});
