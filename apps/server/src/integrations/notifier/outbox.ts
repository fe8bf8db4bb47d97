import type { Queryable } from '../../persistence/db.ts';
import { enqueueJob, type JobHandler } from '../../jobs/runner.ts';
import type { DeliveryProvider, OutgoingMessage } from './notifier.ts';

export const DELIVER_NOTIFICATION_JOB = 'notification.deliver';

/** What is left of a delivered message: its secret (a code, say) is not kept where staff read. */
const DELIVERED_BODY = '[delivered by the provider; the content is not kept]';

/**
 * Queues a message in the caller's transaction: the outbox row and its delivery job commit (or
 * not) with whatever decided to send it.
 */
export async function queueNotification(tx: Queryable, message: OutgoingMessage & { topic: string; at: Date }): Promise<bigint> {
  const [row] = await tx.query<{ id: bigint }>(
    `INSERT INTO notification_outbox (channel, target, subject, body, topic, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [message.channel, message.target, message.subject, message.body, message.topic, message.at],
  );
  await enqueueJob(tx, { kind: DELIVER_NOTIFICATION_JOB, key: `notification:${row!.id}`, payload: { outboxId: row!.id.toString() }, runAt: message.at });
  return row!.id;
}

/**
 * The delivery job: hands the message to the provider for its channel; with none configured the
 * message stays in the outbox (status outbox_only), where staff read it in the back-office.
 * A provider error throws, so the runner retries with backoff; the error and the attempts are on
 * the job row (`jobs.job_key = 'notification:<id>'`), which the staff view shows beside the message.
 */
export function deliverNotificationHandler(providers: readonly DeliveryProvider[]): JobHandler {
  return async (tx, job) => {
    const outboxId = BigInt(String(job.payload.outboxId));
    const [message] = await tx.query<OutgoingMessage & { id: bigint; status: string }>(
      'SELECT id, channel, target, subject, body, status FROM notification_outbox WHERE id = $1 FOR UPDATE',
      [outboxId],
    );
    if (message?.status !== 'pending') return;
    const provider = providers.find((candidate) => candidate.channel === message.channel);
    if (!provider) {
      await tx.query(`UPDATE notification_outbox SET status = 'outbox_only' WHERE id = $1`, [outboxId]);
      return;
    }
    await provider.deliver(message);
    await tx.query(
      `UPDATE notification_outbox SET status = 'delivered', provider = $2, delivered_at = now(), body = $3 WHERE id = $1`,
      [outboxId, provider.name, DELIVERED_BODY],
    );
  };
}
