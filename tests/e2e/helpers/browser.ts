import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium; nothing is ever downloaded. CHROMIUM_PATH overrides, as in scripts/test.mjs. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

/** A phone-sized context (the app is mobile first) whose pages open on the test server. */
export async function newPhoneContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    hasTouch: false,
    locale: 'en-US',
  });
  context.setDefaultTimeout(10_000);
  return context;
}

/**
 * Opens a page of the app with a session already on the device, as after a login. With
 * `pushFrames`, every /ws frame the page receives is added to it, from before the page opens its
 * push connection (see `pushConnectionAuthed`).
 */
export async function openLoggedIn(
  context: BrowserContext,
  session: { token: string; userId: string },
  path: string,
  options: { pushFrames?: string[] } = {},
): Promise<Page> {
  const page = await context.newPage();
  const { pushFrames } = options;
  if (pushFrames) page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => pushFrames.push(String(payload))));
  await putSessionOnDevice(page, session);
  await page.goto(path);
  return page;
}

/**
 * Writes a session into the site's localStorage, as a login leaves it, from a document of the site
 * that runs none of the app (`/healthz`): a page of the app could still be starting when the token
 * appears and act on it (the login screen sends a device with a session to `/index`, whose first
 * reads then count among the next page's requests).
 */
export async function putSessionOnDevice(page: Page, session: { token: string; userId: string }): Promise<void> {
  await page.goto('/healthz');
  await page.evaluate(({ token, userId }) => {
    localStorage.setItem('token', token);
    localStorage.setItem('userId', userId);
  }, session);
}

/**
 * True once the push connection said `authed` among `frames` (openLoggedIn's `pushFrames`). A page
 * opens it after its first screen has settled (ADR 0025), so a test that changes the session under
 * the page waits for this first: else the late socket may be the call that finds the change.
 */
export function pushConnectionAuthed(frames: readonly string[]): boolean {
  return frames.some((frame) => frame.includes('"type":"authed"'));
}

export function storage(page: Page, key: string): Promise<string | null> {
  return page.evaluate((name) => localStorage.getItem(name), key);
}

/** The path and query of the page's URL. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}
