import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneContext } from './helpers/browser.ts';
import { type E2eServer, startServer } from './helpers/server.ts';

// The app's pages run under a strict Content-Security-Policy (connect-src 'self'). CSP Level 3
// lets 'self' match ws:/wss: on the same host, so a page may open /ws; this proves it in Chromium.

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('market push connection in the browser', () => {
  it('a page of the app opens /ws on its own host under the CSP and receives live simulator ticks', async () => {
    context = await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    const response = await page.goto('/login');
    expect(response?.headers()['content-security-policy']).toContain("connect-src 'self'");
    const result = await page.evaluate(
      () =>
        new Promise<{ subscribed: unknown; tick: { symbol: string; price: string; source: string } }>((resolve, reject) => {
          const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
          let subscribed: unknown;
          const timer = setTimeout(() => reject(new Error('no tick within 10 s')), 10_000);
          socket.onerror = () => reject(new Error('the WebSocket failed to open'));
          socket.onopen = () => socket.send(JSON.stringify({ op: 'subscribe', channels: ['ticks'] }));
          socket.onmessage = (event) => {
            const frame = JSON.parse(event.data as string);
            if (frame.type === 'subscribed') subscribed = frame;
            if (frame.type === 'tick') {
              clearTimeout(timer);
              socket.close();
              resolve({ subscribed, tick: frame.tick });
            }
          };
        }),
    );
    expect(violations).toEqual([]);
    expect(result.subscribed).toEqual({ type: 'subscribed', channels: ['ticks'], replayedTicks: 0, replayTruncated: false });
    expect(result.tick).toMatchObject({ source: 'simulator', price: expect.stringMatching(/^\d+\.\d{8}$/) });
  });

  it('the same CSP refuses a WebSocket to another host', async () => {
    context ??= await newPhoneContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/login');
    const outcome = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (event) => resolve(`violation: ${event.effectiveDirective}`));
          try {
            // Another loopback address is another origin; the policy stops the attempt before any traffic.
            const socket = new WebSocket(`ws://127.0.0.2:${location.port}/ws`);
            socket.onopen = () => resolve('opened');
          } catch (error) {
            resolve(`thrown: ${(error as Error).name}`);
          }
        }),
    );
    expect(outcome).toMatch(/^(violation: connect-src|thrown: SecurityError)$/);
  });
});
