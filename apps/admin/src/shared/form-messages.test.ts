import {
  createStaffContract,
  decideVerificationContract,
  decideWithdrawalContract,
  listStaffOptionOrdersContract,
  resolveP2pAppealContract,
  STAFF_PASSWORD_MIN_LENGTH,
  setOwnStaffPasswordContract,
  setUserStatusContract,
} from '@keel/contracts';
import type { FieldErrors, ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractResolver, fieldMessage, readFieldMessage } from './form-messages.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<never> as never;

/** What each field's error says, as the key and values the page translates. */
async function messagesOf(schema: z.ZodType, values: unknown, messages = {}) {
  const result = await contractResolver(schema as z.ZodType<object, object>, messages)(values as never, undefined, options);
  return Object.fromEntries(Object.entries(result.errors as FieldErrors).map(([name, error]) => [name, readFieldMessage(error?.message as string)]));
}

describe('form errors from the contracts’ schemas', () => {
  it('says a rule without a message of its own with a generic key and its number', async () => {
    expect(await messagesOf(setUserStatusContract.body!, { status: 'banned', reason: 'no' })).toEqual({
      reason: { key: 'admin.form.tooShort', vars: { min: 3 } },
    });
    expect(await messagesOf(setUserStatusContract.body!, { status: 'banned', reason: 'x'.repeat(501) })).toEqual({
      reason: { key: 'admin.form.tooLong', vars: { max: 500 } },
    });
    expect(await messagesOf(z.object({ name: z.string().min(1) }), { name: '' })).toEqual({ name: { key: 'admin.form.required' } });
    expect(await messagesOf(setUserStatusContract.body!, { status: 'deleted', reason: 'a good reason' })).toEqual({
      status: { key: 'admin.form.invalid' },
    });
  });

  it('never shows the English message a contract wrote: the sentence of the rule it names', async () => {
    // The contract says "must be 3 to 32 letters …" and "at least one role" (validationMessages).
    expect(await messagesOf(createStaffContract.body!, { username: 'a', roles: [] })).toEqual({
      username: { key: 'admin.staff.usernameHint' },
      roles: { key: 'admin.staff.rolesHint' },
    });
    expect(await messagesOf(setUserStatusContract.body!, { status: 'banned', reason: 'card <b>fraud</b>' })).toEqual({
      reason: { key: 'admin.form.invalidCharacters' },
    });
    expect(await messagesOf(setOwnStaffPasswordContract.body!, { currentPassword: 'x', newPassword: 'short' })).toEqual({
      newPassword: { key: 'admin.password.tooShort', vars: { min: STAFF_PASSWORD_MIN_LENGTH } },
    });
    // A message nobody named is "check this value", never its English.
    expect(await messagesOf(z.object({ code: z.string().regex(/^\d+$/, 'digits only please') }), { code: 'x' })).toEqual({
      code: { key: 'admin.form.invalid' },
    });
  });

  it('takes the form’s own sentence for a field before the rule’s', async () => {
    expect(
      await messagesOf(createStaffContract.body!, { username: 'a', roles: ['admin'] }, { username: { invalid_format: fieldMessage('admin.staff.username') } }),
    ).toEqual({ username: { key: 'admin.staff.username' } });
  });

  it('shows a refinement of the contract (a rejection needs a reason) with the rule’s or the form’s key', async () => {
    expect(await messagesOf(decideVerificationContract.body!, { decision: 'reject', reason: '' })).toEqual({
      reason: { key: 'admin.verifications.reasonRequired' },
    });
    const reasonRule = { reason: { custom: fieldMessage('admin.finance.reasonTooShort') } };
    expect(await messagesOf(decideWithdrawalContract.body!, { decision: 'reject', reason: ' ab ' }, reasonRule)).toEqual({
      reason: { key: 'admin.finance.reasonTooShort' },
    });
    expect(await messagesOf(decideWithdrawalContract.body!, { decision: 'approve' }, reasonRule)).toEqual({});
  });

  it('checks a note as the server does: trimmed, at least 3 characters, plain text', async () => {
    const noteRules = { note: { invalid_format: fieldMessage('admin.appeals.noteInvalid') } };
    expect(await messagesOf(resolveP2pAppealContract.body!, { outcome: 'release', note: '  ok  ' }, noteRules)).toEqual({
      note: { key: 'admin.appeals.noteTooShort' },
    });
    expect(await messagesOf(resolveP2pAppealContract.body!, { outcome: 'release', note: 'paid <b>twice</b>' }, noteRules)).toEqual({
      note: { key: 'admin.appeals.noteInvalid' },
    });
  });

  it('hands the form the contract’s parsed values (trimmed), ready to send', async () => {
    const result = await contractResolver(setUserStatusContract.body!)({ status: 'suspended', reason: '  card fraud  ' }, undefined, options);
    expect(result).toEqual({ values: { status: 'suspended', reason: 'card fraud' }, errors: {} });
  });

  it('checks a user filter as an id', async () => {
    const filter = listStaffOptionOrdersContract.query!.pick({ userId: true });
    expect(await messagesOf(filter, { userId: '12x' })).toEqual({ userId: { key: 'admin.form.idFormat' } });
    expect(await messagesOf(filter, { userId: '12x' }, { userId: { '*': fieldMessage('admin.options.filter.userInvalid') } })).toEqual({
      userId: { key: 'admin.options.filter.userInvalid' },
    });
    expect(await messagesOf(filter, { userId: undefined })).toEqual({});
  });

  it('reads only keys back, never an English sentence', () => {
    expect(readFieldMessage(fieldMessage('admin.form.tooLong', { max: 5 }))).toEqual({ key: 'admin.form.tooLong', vars: { max: 5 } });
    expect(readFieldMessage(fieldMessage('error.PASSWORDS_INCONSISTENT'))).toEqual({ key: 'error.PASSWORDS_INCONSISTENT' });
    expect(readFieldMessage('must be at least 10 characters')).toBeNull();
    expect(readFieldMessage(undefined)).toBeNull();
  });
});
