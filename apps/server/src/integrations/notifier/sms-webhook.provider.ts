import type { DeliveryProvider, OutgoingMessage } from './notifier.ts';

/**
 * SMS through an operator's gateway: POST {"to", "text"} as JSON to a configured URL. Most SMS
 * providers (or a small relay in front of one) accept this shape; a non-2xx answer is a failure
 * and the delivery job retries it.
 */
export function createSmsWebhookProvider(options: { url: string; timeoutMs?: number }): DeliveryProvider {
  return {
    name: 'sms-webhook',
    channel: 'sms',
    async deliver(message: OutgoingMessage) {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: message.target, text: `${message.subject}: ${message.body}` }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
    },
  };
}
