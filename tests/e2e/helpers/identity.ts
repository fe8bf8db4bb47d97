import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';
import { hashPassword } from '../../../apps/server/src/security/passwords.ts';
import { base32Decode, hotp, totpStepAt } from '../../../apps/server/src/security/totp.ts';
import type { E2eServer } from './server.ts';

// Helpers for the issue 4 browser tests: codes as a person would read them, staff, images, TOTP.

/**
 * The newest 6-digit code queued to `target` (an e-mail address or +phone), read from the
 * notification outbox as a person would read it from the message. Waits until a message newer
 * than `afterId` is there.
 */
export async function codeSentTo(server: E2eServer, target: string, afterId = 0n): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const [row] = await server.db.query<{ id: bigint; body: string }>(
        'SELECT id, body FROM notification_outbox WHERE target = $1 AND id > $2 ORDER BY id DESC LIMIT 1',
        [target, afterId],
      );
      code = /\b(\d{6})\b/.exec(row?.body ?? '')?.[1];
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

/** The id of the newest outbox message, so a later code can be told from an earlier one. */
export async function lastOutboxId(server: E2eServer): Promise<bigint> {
  const [row] = await server.db.query<{ id: bigint | null }>('SELECT max(id) AS id FROM notification_outbox');
  return BigInt(row?.id ?? 0);
}

/** The authenticator secret of every staff member `createStaff` makes (base32, as enrolment stores it). */
export const E2E_STAFF_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export interface StaffCredentials {
  username: string;
  password: string;
  /** The code the member's authenticator shows now, by the server's clock (members made by `createStaff`). */
  totpCode?: () => Promise<string>;
}

/**
 * A staff member already through the first-login steps (ADR 0020: own password set, authenticator
 * enrolled with E2E_STAFF_TOTP_SECRET), as an admin would have created them and they would have
 * set themselves up. There is no public staff sign-up.
 */
export async function createStaff(server: E2eServer, username: string, roles: string[], password = 'staffpass1'): Promise<StaffCredentials> {
  await server.db.query('INSERT INTO staff (username, password_hash, roles, totp_secret) VALUES ($1, $2, $3, $4)', [
    username,
    await hashPassword(password),
    roles,
    E2E_STAFF_TOTP_SECRET,
  ]);
  return {
    username,
    password,
    async totpCode() {
      // A test may log one member in several times within one 30 s step, where a person would wait
      // for the authenticator's next code (a code works once): the last accepted step is forgotten.
      await server.db.query('UPDATE staff SET totp_last_step = NULL WHERE username = $1', [username]);
      return hotp(base32Decode(E2E_STAFF_TOTP_SECRET), totpStepAt(server.now().getTime()));
    },
  };
}

/** Logs a staff member in through the back-office form (ending any staff session of the context). */
export async function staffLogin(page: Page, staff: StaffCredentials) {
  await page.goto('/admin');
  await page.evaluate(() => localStorage.removeItem('staffToken'));
  await page.reload();
  await page.getByLabel('Username').fill(staff.username);
  await page.getByLabel('Password').fill(staff.password);
  if (staff.totpCode) await page.getByLabel('Authenticator code').fill(await staff.totpCode());
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

/** A real photo-like image: a gradient with a little noise, as PNG or JPEG bytes. */
export async function photo(seed: number, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const width = 96;
  const height = 64;
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < width * height; index++) {
    pixels[index * 3] = (index % width) * 2 + seed;
    pixels[index * 3 + 1] = Math.floor(index / width) * 3;
    pixels[index * 3 + 2] = (seed * 37 + index) % 256;
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

/** What an authenticator app shows for `secret`, `stepsAhead` periods from now. */
export function totpCode(secret: string, stepsAhead = 0): string {
  return hotp(base32Decode(secret), totpStepAt(Date.now()) + BigInt(stepsAhead));
}

/** Calls the API with a session token, as a second device of the same user would. */
export async function callApi<T = unknown>(server: E2eServer, method: string, path: string, token: string | null, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as { code: number; msg: string; data: T };
}

/** Logs in through the API (another device), returning its token. */
export async function loginViaApi(server: E2eServer, account: string, password: string): Promise<string> {
  const answer = await callApi<{ token: string }>(server, 'POST', '/home/auth/login', null, { account, password, agreement: true });
  if (answer.code !== 200) throw new Error(`login ${account} failed: ${answer.msg}`);
  return answer.data.token;
}
