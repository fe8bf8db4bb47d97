import type { Transporter } from 'nodemailer';
import type { DeliveryProvider, OutgoingMessage } from './notifier.ts';

/** E-mail through any SMTP server (nodemailer), as plain text: no HTML, nothing to render. */
export function createSmtpProvider(options: { url: string; from: string }): DeliveryProvider & { close(): void } {
  // nodemailer loads with the first message, not at start-up (issue 15).
  let transport: Promise<Transporter> | undefined;
  const opened = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options.url));
    return transport;
  };
  return {
    name: 'smtp',
    channel: 'email',
    async deliver(message: OutgoingMessage) {
      await (await opened()).sendMail({ from: options.from, to: message.target, subject: message.subject, text: message.body });
    },
    close: () => void transport?.then((open) => open.close()),
  };
}
