import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

interface Answer<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}

const photo = async (color: number, format: 'png' | 'jpeg' = 'png') =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: color, g: 90, b: 160 } } })
    [format]()
    .withExif({ IFD0: { Make: 'PhoneCam', ImageDescription: 'home address 12 Main St' } })
    .toBuffer();

describe('identity verification with uploads and review', () => {
  let t: TestApp;
  let complianceToken = '';
  let supportToken = '';
  beforeAll(async () => {
    t = await createTestApp();
    complianceToken = await createStaff(t.app, t.db, 'reviewer1', ['compliance']);
    supportToken = await createStaff(t.app, t.db, 'helper01', ['support']);
  });
  afterAll(() => t.close());

  const upload = async (token: string, bytes: Buffer | Uint8Array, contentType = 'image/png') =>
    (
      await t.app.inject({ method: 'POST', url: '/home/uploads/image', headers: { authorization: token, 'content-type': contentType }, payload: Buffer.from(bytes) })
    ).json() as Answer<{ uploadId: string; format: string }>;
  const call = async <T = Record<string, unknown>>(method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
    (await t.app.inject({ method, url, headers: { authorization: token }, ...(payload ? { payload: payload as Record<string, unknown> } : {}) })).json() as Answer<T>;
  const identityBody = (ids: string[]) => ({
    realName: 'Ana Silva',
    country: 'PT',
    address: 'Rua Augusta 1, Lisboa',
    idType: 'passport',
    idNumber: 'P1234567',
    frontUploadId: ids[0],
    backUploadId: ids[1],
    holdingUploadId: ids[2],
  });
  const threePhotos = async (token: string) => [
    (await upload(token, await photo(10))).data.uploadId,
    (await upload(token, await photo(20))).data.uploadId,
    (await upload(token, await photo(30, 'jpeg'), 'application/octet-stream')).data.uploadId,
  ];

  it('accepts a PNG sent as image/jpeg as a PNG, stores it encrypted and without metadata, serves it to its owner only', async () => {
    const user = await registerViaApi(t.app, 'uploader1');
    const stored = await upload(user.token, await photo(200), 'image/jpeg');
    expect(stored).toMatchObject({ code: 200, data: { format: 'png' } });
    const fetched = await t.app.inject({ url: `/home/uploads/${stored.data.uploadId}`, headers: { authorization: user.token } });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('image/png');
    expect(fetched.headers['cache-control']).toBe('private, no-store');
    expect(fetched.rawPayload.includes('PhoneCam')).toBe(false);
    expect((await sharp(fetched.rawPayload).metadata()).width).toBe(64);
    // On disk: neither the PNG signature nor the pixels' encoder output in the clear.
    const folder = join(t.storageRoot, 'verification', user.userId);
    const [file] = await readdir(folder);
    const onDisk = await readFile(join(folder, file!));
    expect(onDisk.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(false);
    expect(onDisk.includes(fetched.rawPayload.subarray(16, 48))).toBe(false);

    const other = await registerViaApi(t.app, 'uploader2');
    expect((await t.app.inject({ url: `/home/uploads/${stored.data.uploadId}`, headers: { authorization: other.token } })).json()).toMatchObject({
      code: 404,
    });
  });

  it('refuses HTML or PDF posing as images, truncated images, and oversized files', async () => {
    const user = await registerViaApi(t.app, 'uploader3');
    const html = Buffer.from(`<html><body><img src=x onerror=alert(1)>${'x'.repeat(200)}</body></html>`);
    expect((await upload(user.token, html, 'image/png')).msg).toBe('wrong image format');
    expect((await upload(user.token, Buffer.from(`%PDF-1.4\n${'y'.repeat(300)}`), 'image/png')).msg).toBe('wrong image format');
    const png = await photo(90);
    expect((await upload(user.token, png.subarray(0, png.length - 40))).msg).toBe('wrong image format');
    const big = Buffer.alloc(8 * 1024 * 1024 + 10);
    png.copy(big);
    expect((await upload(user.token, big)).msg).toBe('file size mismatch');
    expect((await call('POST', '/home/uploads/image', user.token, { not: 'a file' })).code).toBe(400);
  });

  it('runs the whole flow: submit, in review, compliance sees photos (audited), rejects, resubmit, approve, tier 1', async () => {
    const user = await registerViaApi(t.app, 'kycuser01');
    expect((await call('GET', '/home/verification', user.token)).data).toMatchObject({
      identity: { status: 'unverified' },
      advanced: { status: 'unverified' },
      tier: 0,
      dailyWithdrawalLimitUsdt: '0',
    });
    const ids = await threePhotos(user.token);
    expect(await call('POST', '/home/verification/identity', user.token, identityBody(ids))).toMatchObject({ code: 200, data: { status: 'in_review' } });
    expect((await call('POST', '/home/verification/identity', user.token, identityBody(ids))).msg).toBe('verification already in review');
    expect((await call('GET', '/home/verification', user.token)).data).toMatchObject({ identity: { status: 'in_review' } });

    // Support staff cannot review; compliance can, and each photo view is audited.
    expect((await call('GET', '/home/admin/verifications', supportToken)).code).toBe(403);
    const queue = await call<{ items: { id: string; userId: string; photos: { front: string }; fields: Record<string, string> }[] }>(
      'GET',
      '/home/admin/verifications',
      complianceToken,
    );
    const mine = queue.data.items.find((item) => item.userId === user.userId)!;
    expect(mine.fields).toMatchObject({ realName: 'Ana Silva', idType: 'passport', idNumber: 'P1234567' });
    // One submission by its id, as the back-office link opens it (ADR 0028): the queue's view of it.
    expect((await call('GET', `/home/admin/verifications/${mine.id}`, complianceToken)).data).toEqual(mine);
    expect((await call('GET', `/home/admin/verifications/${mine.id}`, supportToken)).code).toBe(403);
    expect((await call('GET', `/home/admin/verifications/${BigInt(mine.id) + 1000n}`, complianceToken)).msg).toBe('record does not exist');
    expect((await t.app.inject({ url: `/home/admin/uploads/${mine.photos.front}`, headers: { authorization: supportToken } })).statusCode).toBe(403);
    const image = await t.app.inject({ url: `/home/admin/uploads/${mine.photos.front}`, headers: { authorization: complianceToken } });
    expect(image.statusCode).toBe(200);
    const audits = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id`, [user.userId]);
    expect(audits.map((a) => a.action)).toEqual(['upload.view']);

    expect((await call('POST', `/home/admin/verifications/${mine.id}/decision`, complianceToken, { decision: 'reject' })).code).toBe(400);
    const rejected = await call('POST', `/home/admin/verifications/${mine.id}/decision`, complianceToken, { decision: 'reject', reason: 'The photo is blurred' });
    expect(rejected).toMatchObject({ code: 200, data: { status: 'rejected', rejectReason: 'The photo is blurred', reviewedBy: 'reviewer1' } });
    expect((await call('GET', `/home/admin/verifications/${mine.id}`, complianceToken)).data).toEqual(rejected.data);
    expect((await call('POST', `/home/admin/verifications/${mine.id}/decision`, complianceToken, { decision: 'approve' })).msg).toBe(
      'verification is not in review',
    );
    expect((await call('GET', '/home/verification', user.token)).data).toMatchObject({
      identity: { status: 'rejected', rejectReason: 'The photo is blurred' },
    });
    expect((await call('GET', '/home/user/unread', user.token)).data).toBe(true);

    const again = await call<{ submissionId: string }>('POST', '/home/verification/identity', user.token, identityBody(await threePhotos(user.token)));
    expect(again.code).toBe(200);
    expect((await call('POST', `/home/admin/verifications/${again.data.submissionId}/decision`, complianceToken, { decision: 'approve' })).code).toBe(200);
    expect((await call('GET', '/home/verification', user.token)).data).toMatchObject({
      identity: { status: 'verified' },
      tier: 1,
      dailyWithdrawalLimitUsdt: '50000',
    });
    expect((await call('POST', '/home/verification/identity', user.token, identityBody(ids))).msg).toBe('already verified');
    const actions = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_id = $1 ORDER BY id`, [user.userId]);
    expect(actions.map((a) => a.action)).toEqual(['upload.view', 'verification.reject', 'verification.approve']);
    const [message] = await t.db.query<{ title: string }>('SELECT title FROM messages WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [BigInt(user.userId)]);
    expect(message!.title).toBe('Approved: identity verification');
  });

  it('advanced needs identity first; nobody can submit another user\'s photos', async () => {
    const user = await registerViaApi(t.app, 'kycuser02');
    const ids = await threePhotos(user.token);
    const advanced = { occupation: 'Engineer', income: '50,000–100,000 EUR', contactPhone: '+351 912 345 678', frontUploadId: ids[0], backUploadId: ids[1], holdingUploadId: ids[2] };
    expect((await call('POST', '/home/verification/advanced', user.token, advanced)).msg).toBe('identity verification required');
    const thief = await registerViaApi(t.app, 'kycthief1');
    expect((await call('POST', '/home/verification/identity', thief.token, identityBody(ids))).code).toBe(404);
    expect((await call('POST', '/home/verification/identity', user.token, { ...identityBody(ids), country: 'Portugal' })).code).toBe(400);
  });
});
