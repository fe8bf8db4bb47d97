/** A message to one person, on one channel. */
export interface OutgoingMessage {
  channel: 'email' | 'sms';
  /** A normalised e-mail address or E.164 phone number. */
  target: string;
  subject: string;
  body: string;
}

/**
 * Something that can hand a message to the outside world (a mail server, an SMS gateway). A
 * delivery that throws is retried by the job runner with backoff.
 */
export interface DeliveryProvider {
  readonly name: string;
  readonly channel: OutgoingMessage['channel'];
  deliver(message: OutgoingMessage): Promise<void>;
}
