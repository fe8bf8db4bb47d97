import { emailAddressSchema, phoneNumberSchema, validationMessages, verificationCodeSchema } from '@keel/contracts';
import type { CodeChannel } from './code-wait.ts';

/**
 * The address a code goes to, checked as the server checks it (the contracts' e-mail and phone
 * schemas, built on the domain's normalisers), so "incorrect email format" shows before a code is asked for.
 */
export function targetSchema(channel: CodeChannel) {
  return channel === 'email' ? emailAddressSchema : phoneNumberSchema;
}

/** The code that was sent: the contract's code field, which the flows with a code require. */
export const requiredCodeSchema = verificationCodeSchema.min(1, validationMessages.required);

