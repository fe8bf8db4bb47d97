import type { Config } from '../../config/env.ts';
import type { DeliveryProvider } from './notifier.ts';
import { createSmsWebhookProvider } from './sms-webhook.provider.ts';
import { createSmtpProvider } from './smtp.provider.ts';

/** The providers the configuration names; with none, every message stays in the outbox for staff. */
export function deliveryProvidersFromConfig(config: Config): DeliveryProvider[] {
  const providers: DeliveryProvider[] = [];
  if (config.SMTP_URL) providers.push(createSmtpProvider({ url: config.SMTP_URL, from: config.SMTP_FROM }));
  if (config.SMS_WEBHOOK_URL) providers.push(createSmsWebhookProvider({ url: config.SMS_WEBHOOK_URL }));
  return providers;
}
