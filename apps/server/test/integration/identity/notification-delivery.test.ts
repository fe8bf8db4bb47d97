import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverNotificationHandler, DELIVER_NOTIFICATION_JOB, queueNotification } from '../../../src/integrations/notifier/outbox.ts';
import { createSmsWebhookProvider } from '../../../src/integrations/notifier/sms-webhook.provider.ts';
import { createSmtpProvider } from '../../../src/integrations/notifier/smtp.provider.ts';
import { JobRunner } from '../../../src/jobs/runner.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

/** A real SMTP server on a free loopback port that keeps what it receives. */
async function startSmtp() {
  const received: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('notification delivery', () => {
  let t: TestDb;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let sms: Server;
  let smsUrl = '';
  const smsReceived: unknown[] = [];
  let smsFailuresLeft = 0;
  const now = new Date('2026-11-22T12:00:00Z');

  beforeAll(async () => {
    t = await createTestDb();
    smtp = await startSmtp();
    sms = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        if (smsFailuresLeft > 0) {
          smsFailuresLeft -= 1;
          response.writeHead(502).end();
          return;
        }
        smsReceived.push(JSON.parse(body));
        response.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((resolve) => sms.listen(0, '127.0.0.1', resolve));
    smsUrl = `http://127.0.0.1:${(sms.address() as AddressInfo).port}/send`;
  });
  afterAll(async () => {
    await smtp.close();
    await new Promise((resolve) => sms.close(resolve));
    await t.dispose();
  });

  const runner = (providers: Parameters<typeof deliverNotificationHandler>[0]) =>
    new JobRunner({ db: t.db, handlers: { [DELIVER_NOTIFICATION_JOB]: deliverNotificationHandler(providers) }, now: () => now, retryDelay: () => 0 });
  const queue = (channel: 'email' | 'sms', target: string, body: string) =>
    t.db.transaction((tx) => queueNotification(tx, { channel, target, subject: 'Your Keel code', body, topic: 'verification_code:register', at: now }));
  const outboxRow = async (id: bigint) =>
    (await t.db.query<{ status: string; provider: string | null; body: string }>('SELECT status, provider, body FROM notification_outbox WHERE id = $1', [id]))[0]!;

  it('sends e-mail through a real SMTP server, then blanks the stored body', async () => {
    const provider = createSmtpProvider({ url: smtp.url, from: 'Keel <no-reply@keel.example>' });
    const id = await queue('email', 'ana@example.com', 'Your code is 482913. It expires in 5 minutes.');
    expect(await runner([provider]).drain()).toBe(1);
    provider.close();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['ana@example.com']);
    expect(smtp.received[0]!.raw).toMatch(/Subject: Your Keel code/);
    expect(smtp.received[0]!.raw).toContain('482913');
    expect(await outboxRow(id)).toEqual({ status: 'delivered', provider: 'smtp', body: expect.not.stringContaining('482913') });
  });

  it('keeps the message in the outbox for staff when no provider serves its channel', async () => {
    const id = await queue('sms', '+491701234567', 'Your code is 111222.');
    await runner([]).drain();
    expect(await outboxRow(id)).toEqual({ status: 'outbox_only', provider: null, body: 'Your code is 111222.' });
  });

  it('retries a failing SMS gateway and delivers once it answers', async () => {
    smsFailuresLeft = 2;
    const id = await queue('sms', '+442079460958', 'Your code is 333444.');
    const jobs = runner([createSmsWebhookProvider({ url: smsUrl })]);
    await jobs.runOne();
    expect((await outboxRow(id)).status).toBe('pending');
    const [job] = await t.db.query<{ attempts: number; last_error: string }>(`SELECT attempts, last_error FROM jobs WHERE job_key = $1`, [`notification:${id}`]);
    expect(job).toMatchObject({ attempts: 1, last_error: 'SMS gateway answered 502' });
    await jobs.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'delivered', provider: 'sms-webhook' });
    expect(smsReceived).toEqual([{ to: '+442079460958', text: 'Your Keel code: Your code is 333444.' }]);
  });
});

describe('the outbox in the back-office', () => {
  it('shows support and admin staff what was sent (audited); other roles are refused', async () => {
    const { createStaff, createTestApp } = await import('../../helpers/test-app.ts');
    const t = await createTestApp();
    try {
      await t.app.inject({ method: 'POST', url: '/home/auth/code', payload: { channel: 'email', target: 'outbox@example.com', purpose: 'register' } });
      const support = await createStaff(t.app, t.db, 'support01', ['support']);
      const finance = await createStaff(t.app, t.db, 'finance01', ['finance']);
      const list = (token: string, query = '') => t.app.inject({ url: `/home/admin/notifications${query}`, headers: { authorization: token } });
      expect((await list(finance)).json()).toMatchObject({ code: 403 });
      const answer = (await list(support, '?target=OUTBOX@example.com')).json() as {
        data: { items: { target: string; body: string; status: string; attempts: number }[]; total: number };
      };
      expect(answer.data.total).toBe(1);
      expect(answer.data.items[0]).toMatchObject({ target: 'outbox@example.com', status: 'pending', attempts: 0 });
      expect(answer.data.items[0]!.body).toMatch(/\b\d{6}\b/);
      const audit = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE action = 'notifications.view'`);
      expect(audit).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('registration by e-mail through a real SMTP server', () => {
  it('delivers the code by SMTP; the code read from the received mail registers the account', async () => {
    const { createTestApp } = await import('../../helpers/test-app.ts');
    const { deliveryProvidersFromConfig } = await import('../../../src/integrations/notifier/providers.ts');
    const smtp = await startSmtp();
    const t = await createTestApp({ SMTP_URL: smtp.url, SMTP_FROM: 'Keel <no-reply@keel.example>' });
    try {
      const sent = await t.app.inject({
        method: 'POST',
        url: '/home/auth/code',
        payload: { channel: 'email', target: 'mailer@example.com', purpose: 'register', language: 'de' },
      });
      expect(sent.json()).toMatchObject({ code: 200 });
      const providers = deliveryProvidersFromConfig(t.config);
      const jobs = new JobRunner({ db: t.db, handlers: { [DELIVER_NOTIFICATION_JOB]: deliverNotificationHandler(providers) } });
      expect(await jobs.drain()).toBe(1);
      for (const provider of providers) (provider as { close?: () => void }).close?.();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.to).toEqual(['mailer@example.com']);
      // The German text, as the request asked; the code is only in the mail now, not in the outbox.
      const mail = smtp.received[0]!.raw.replace(/=\r?\n/g, '');
      expect(mail).toMatch(/Registrierung/);
      const code = /\b(\d{6})\b/.exec(mail.split('\r\n\r\n').slice(1).join('\n'))?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const [row] = await t.db.query<{ body: string; status: string }>(`SELECT body, status FROM notification_outbox WHERE target = 'mailer@example.com'`);
      expect(row).toMatchObject({ status: 'delivered' });
      expect(row!.body).not.toContain(code);
      const registered = await t.app.inject({
        method: 'POST',
        url: '/home/auth/register',
        payload: { email: 'mailer@example.com', code, password: 'secret12', confirmPassword: 'secret12', agreement: true },
      });
      expect(registered.json()).toMatchObject({ code: 200, data: { user: { email: 'mailer@example.com' } } });
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});
