import nodemailer from 'nodemailer';
import type { DeliveryProvider, OutgoingMessage } from './notifier.ts';

/** E-mail through any SMTP server (nodemailer), as plain text: no HTML, nothing to render. */
export function createSmtpProvider(options: { url: string; from: string }): DeliveryProvider & { close(): void } {
  const transport = nodemailer.createTransport(options.url);
  return {
    name: 'smtp',
    channel: 'email',
    async deliver(message: OutgoingMessage) {
      await transport.sendMail({ from: options.from, to: message.target, subject: message.subject, text: message.body });
    },
    close: () => transport.close(),
  };
}
