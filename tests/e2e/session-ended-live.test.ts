import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext, pathOf, storage } from './helpers/browser.ts';
import { callApi, loginViaApi } from './helpers/identity.ts';
import { type E2eServer, registerUser, startServer, uniqueUsername } from './helpers/server.ts';

// Issue 13, defect 6 (ADR 0023): a page connected to /ws whose session is ended elsewhere hears it
// over the connection (`unauthed`) and follows the app's session rules at once, with no click.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ market: false }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(async () => {
  await context?.close();
});

describe('a session ended under an open page', () => {
  it('ended from another device: the page goes to login by itself', async () => {
    const user = await registerUser(server.baseUrl, uniqueUsername('live'));
    const otherDevice = await loginViaApi(server, user.username, user.password);
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    const frames: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => frames.push(String(payload))));
    await page.goto('/login');
    await page.evaluate(({ token, userId }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('userId', userId);
    }, user);
    await page.goto('/index');
    await page.getByTestId('greeting').getByText(user.username).waitFor();
    // The tab shell follows the user's events: its connection is authenticated.
    await expect.poll(() => frames.some((frame) => frame.includes('"type":"authed"'))).toBe(true);

    const sessions = await callApi<{ items: { id: string; current: boolean }[] }>(server, 'GET', '/home/user/sessions', otherDevice);
    const pageSession = sessions.data.items.find((session) => !session.current)!;
    expect((await callApi(server, 'DELETE', `/home/user/sessions/${pageSession.id}`, otherDevice)).code).toBe(200);

    await page.waitForURL((url) => url.pathname === '/login');
    expect(pathOf(page)).toBe('/login?redirect=%2Findex');
    expect(frames.some((frame) => frame.includes('"type":"unauthed"'))).toBe(true);
    expect(await storage(page, 'token')).toBeNull();
    // The other device is still logged in.
    expect((await callApi(server, 'GET', '/home/user/unread', otherDevice)).code).toBe(200);
  });
});
