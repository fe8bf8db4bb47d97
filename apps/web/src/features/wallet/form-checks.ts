import {
  addBankCardContract,
  addWithdrawalAddressContract,
  createDepositContract,
  emailAddressSchema,
  phoneNumberSchema,
} from '@keel/contracts';
import { checkAddress, normaliseTxHash } from '@keel/domain';
import { bodySchema } from '../../shared/forms/contract-form.ts';
import type { AddressProblemCode } from './refusal.ts';
import type { WalletNetwork } from './wallet-labels.ts';

/**
 * The wallet forms' schemas (ADR 0027): each is its contract's body, and where a rule depends on
 * another field (the network an address or a hash belongs to), the domain's check — the function
 * the server's use case applies to the same text — as a refinement. Nothing here copies a rule:
 * what the contracts say (required, lengths, characters, IFSC) comes from them.
 */

/** The message of a transaction hash not shaped like one of the channel's network. */
export const TX_HASH_FORMAT = 'txHash:format';

/**
 * The deposit report's transaction hash: the contract's field, shaped like a hash of the chosen
 * channel's network (`normaliseTxHash`, as `create-deposit.ts`). `network` is read when checking.
 */
export function txHashField(network: () => WalletNetwork | undefined) {
  return bodySchema(createDepositContract).shape.txHash.refine(
    (text) => {
      const chosen = network();
      return chosen === undefined || text === '' || normaliseTxHash(chosen, text) !== null;
    },
    { message: TX_HASH_FORMAT },
  );
}

const ADDRESS = 'address:';

/** The message of an address problem found by the domain's `checkAddress`. */
export function addressProblemMessage(problem: AddressProblemCode): string {
  return `${ADDRESS}${problem}`;
}

/** The address problem a field error's message carries, if it is one. */
export function addressProblemOfMessage(message: string | undefined): AddressProblemCode | undefined {
  if (!message?.startsWith(ADDRESS)) return undefined;
  const problem = message.slice(ADDRESS.length);
  return ['empty', 'format', 'checksum', 'wrong_network'].includes(problem) ? (problem as AddressProblemCode) : undefined;
}

/**
 * The add-address form: the contract's body, the address checked for the chosen network by
 * `checkAddress` (base58check, bech32, EIP-55; `withdrawal-addresses.ts` checks it the same way).
 * The output's address is in its normal form (checksummed), as the server stores it.
 */
export const addressFormSchema = bodySchema(addWithdrawalAddressContract).superRefine((body, context) => {
    if (body.address === '') return; // the contract's "required" says it
    const checked = checkAddress(body.network, body.address);
    if (!checked.ok) context.addIssue({ code: 'custom', path: ['address'], message: addressProblemMessage(checked.problem) });
  })
  .transform((body) => {
    const checked = checkAddress(body.network, body.address);
    return checked.ok ? { ...body, address: checked.address } : body;
  });

/**
 * The add-card form: the contract's body, with the phone and e-mail checked by the contracts'
 * shared `phoneNumberSchema` and `emailAddressSchema` (the domain's `normalizePhone` and
 * `normalizeEmail`, which the server's `bank-cards.ts` applies too).
 */
export const bankCardFormSchema = bodySchema(addBankCardContract).safeExtend({ phone: phoneNumberSchema, email: emailAddressSchema });
