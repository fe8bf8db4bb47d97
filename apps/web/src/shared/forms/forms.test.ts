import {
  ApiError,
  allContracts,
  contactMethodInputSchema,
  type Contract,
  errorCatalogue,
  loginContract,
  passwordSchema,
  paymentPasswordSchema,
  registerFields,
  validationMessages,
  validationRules,
} from '@keel/contracts';
import { catalogues, type MessageKey, translate } from '@keel/locales';
import type { FieldValues, ResolverOptions } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { applyRefusal, bodySchema, contractResolver, type FormOf, mustMatch } from './contract-form.ts';
import { fieldTextOf, messageKeyOf, refusalParts } from './problems.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<FieldValues>;

/** The English (or `locale`) text a form would show for each failing field of `values`. */
async function shown(schema: z.ZodType<FieldValues, FieldValues>, values: FieldValues, locale: 'en' | 'ru' | 'ar' = 'en') {
  const { errors } = await contractResolver(schema)(values, undefined, options);
  const texts: Record<string, string> = {};
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [name, child] of Object.entries(node)) {
      if (name === 'ref' || typeof child !== 'object' || child === null) continue;
      const path = prefix ? `${prefix}.${name}` : name;
      const message = (child as { message?: unknown }).message;
      if (typeof message === 'string') {
        const text = fieldTextOf(message);
        texts[path] =
          'serverMsg' in text
            ? translate(locale, `error.${Object.entries(errorCatalogue).find(([, each]) => each.msg === text.serverMsg)?.[0]}` as MessageKey)
            : translate(locale, text.key, text.values);
      } else walk(child as Record<string, unknown>, path);
    }
  };
  walk(errors as Record<string, unknown>, '');
  return texts;
}

describe('a zod issue becomes a message in the user language', () => {
  it('names the generic rules by code, with their limits, in the plural form the language needs', async () => {
    const schema = z.object({ name: z.string().min(3).max(5), age: z.number().int().min(18), tags: z.array(z.string()).min(2).max(3) });
    expect(await shown(schema, { name: 'ab', age: 17, tags: ['a'] })).toEqual({
      name: 'Use at least 3 characters',
      age: 'Must be at least 18',
      tags: 'Add at least 2 entries',
    });
    expect(await shown(schema, { name: 'abcdef', age: 18.5, tags: ['a', 'b', 'c', 'd'] })).toEqual({
      name: 'Use at most 5 characters',
      age: 'Enter a whole number',
      tags: 'Keep at most 3 entries',
    });
    expect(await shown(schema, { name: 'ab', age: Number.NaN, tags: [] }, 'ru')).toEqual({
      name: 'Минимум 3 символа',
      age: 'Введите число',
      tags: 'Добавьте хотя бы 2 записи',
    });
    expect((await shown(z.object({ name: z.string().min(11) }), { name: 'a' }, 'ru')).name).toBe('Минимум 11 символов');
  });

  it('says "required" for a field left empty, whichever rule the empty text broke first', async () => {
    const schema = z.object({ password: passwordSchema, choice: z.enum(['a', 'b']), spaces: z.string().trim().min(2, validationMessages.contactValue) });
    expect(await shown(schema, { password: '', choice: undefined, spaces: '   ' })).toEqual({
      password: 'This field is required',
      choice: 'This field is required',
      spaces: 'This field is required',
    });
  });

  it("shows a contract's own rule in its own words, never zod's English", async () => {
    const schema = z.object({ password: passwordSchema, pin: paymentPasswordSchema });
    expect(await shown(schema, { password: 'abc', pin: '12345' })).toEqual({ password: 'Use at least 6 characters', pin: 'Use exactly 6 digits' });
    expect(await shown(schema, { password: '!!!!!!!', pin: '123456' }, 'en')).toEqual({ password: 'Include at least one letter or digit' });
    // The agreement's literal(true) carries its own message.
    const login = await shown(bodySchema(loginContract), { account: 'ana', password: 'x', agreement: false });
    expect(login).toEqual({ agreement: 'Please read and accept the User Agreement and the Terms of Service' });
  });

  it('checks a contact method by its kind, after its length', async () => {
    const schema = z.object({ methods: z.array(contactMethodInputSchema) });
    const texts = await shown(schema, {
      methods: [
        { kind: 'telegram', value: 'x' },
        { kind: 'telegram', value: 'ana trades' },
        { kind: 'email', value: 'ana@' },
        { kind: 'whatsapp', value: '12345' },
        { kind: 'telegram', value: '@ana_trades' },
        { kind: 'other', value: 'anything goes' },
      ],
    });
    expect(texts).toEqual({
      'methods.0.value': 'Use 2 to 64 characters without < or >',
      'methods.1.value': 'A Telegram username has 5 to 32 letters, digits or underscores (the @ is optional)',
      'methods.2.value': 'Incorrect email format',
      'methods.3.value': 'Enter the number with its country code, e.g. +49 170 1234567',
    });
  });

  it('puts a confirmation mismatch on the confirmation, as the catalogue says it', async () => {
    const schema = mustMatch(registerFields.pick({ password: true, confirmPassword: true }), 'password', 'confirmPassword');
    expect(await shown(schema, { password: 'pass1234', confirmPassword: 'pass1235' })).toEqual({ confirmPassword: 'Passwords inconsistent' });
    expect(await shown(schema, { password: 'pass1234', confirmPassword: 'pass1234' })).toEqual({});
    // Also when another field failed in a way that stops zod's other refinements (the agreement).
    const withAgreement = mustMatch(registerFields.pick({ password: true, confirmPassword: true, agreement: true }), 'password', 'confirmPassword');
    expect(await shown(withAgreement, { password: 'pass1234', confirmPassword: 'pass1235', agreement: false })).toEqual({
      confirmPassword: 'Passwords inconsistent',
      agreement: 'Please read and accept the User Agreement and the Terms of Service',
    });
  });

  it('gives the parsed (trimmed) values on success', async () => {
    const result = await contractResolver(bodySchema(loginContract) as z.ZodType<FieldValues, FieldValues>)({ account: '  ana  ', password: ' pw ', agreement: true }, undefined, options);
    expect(result.values).toEqual({ account: 'ana', password: ' pw ', agreement: true });
  });
});

describe('every rule has its message', () => {
  /** Every custom message the contracts give zod, found by walking each schema's definition. */
  function customMessages(): Set<string> {
    const found = new Set<string>();
    const seen = new Set<unknown>();
    const visit = (schema: unknown) => {
      if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
      seen.add(schema);
      const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
      if (!def) return;
      const message = typeof def.error === 'function' ? (def.error as (issue: unknown) => unknown)({ code: 'custom', input: undefined }) : undefined;
      if (typeof message === 'string') found.add(message);
      for (const check of (def.checks as unknown[] | undefined) ?? []) visit(check);
      for (const key of ['innerType', 'in', 'out', 'element', 'left', 'right', 'keyType', 'valueType', 'schema']) visit(def[key]);
      for (const option of (def.options as unknown[] | undefined) ?? []) visit(option);
      for (const child of Object.values((def.shape as Record<string, unknown> | undefined) ?? {})) visit(child);
    };
    for (const contract of allContracts as readonly Contract[]) for (const part of [contract.body, contract.query, contract.params]) visit(part);
    return found;
  }

  it('finds the custom messages of the contracts (the walk reaches nested fields and refinements)', () => {
    const messages = customMessages();
    expect(messages).toContain(validationMessages.sixDigits);
    expect(messages).toContain(validationMessages.oneOfUsernameEmailPhone);
    expect(messages).toContain(validationMessages.agreementRequired);
    expect(messages).toContain(validationMessages.idFormat);
  });

  it('names a rule for every custom message a contract gives, and that rule has a translation', () => {
    const english = catalogues.en as Record<string, string | undefined>;
    const missing = [...customMessages()].filter((message) => {
      const text = fieldTextOf(message);
      return !('key' in text) || text.key === 'web.validation.invalid' || english[text.key] === undefined;
    });
    expect(missing).toEqual([]);
  });

  it('has web.validation.<rule> in every language for every rule', () => {
    for (const [locale, catalogue] of Object.entries(catalogues)) {
      const missing = validationRules.filter((rule) => (catalogue as Record<string, unknown>)[messageKeyOf({ rule })] === undefined);
      // fr-pro and it-pro hold only what differs; their fallback is checked by the catalogue tests.
      if (locale !== 'fr-pro' && locale !== 'it-pro') expect({ locale, missing }).toEqual({ locale, missing: [] });
    }
  });
});

describe('a refusal goes onto the form', () => {
  const refusal = (key: keyof typeof errorCatalogue, data: unknown = null) =>
    new ApiError({ code: errorCatalogue[key].status, msg: errorCatalogue[key].msg, data });

  function fakeForm(values: FieldValues) {
    const setError = vi.fn();
    return { form: { getValues: () => values, setError } as unknown as FormOf<FieldValues>, setError };
  }

  it('puts each "parameter error" field on its field with the rule it broke, focusing the first', () => {
    const { form, setError } = fakeForm({ amount: '', methods: [{ kind: 'telegram', value: '' }] });
    applyRefusal(
      form,
      refusal('PARAMETER_ERROR', {
        fields: [
          { field: 'body.methods.0.value', message: validationMessages.telegramHandle },
          { field: 'body.amount', message: 'Too small: expected string to have >=1 characters' },
        ],
      }),
    );
    expect(setError.mock.calls).toEqual([
      ['methods.0.value', { type: 'server', message: 'rule:telegramHandle' }, { shouldFocus: true }],
      ['amount', { type: 'server', message: 'rule:invalid' }, { shouldFocus: false }],
    ]);
  });

  it('says "parameter error" in the form notice for a field the form does not have', () => {
    const { form, setError } = fakeForm({ amount: '' });
    applyRefusal(form, refusal('PARAMETER_ERROR', { fields: [{ field: 'query.page', message: 'x' }] }));
    expect(setError).toHaveBeenCalledWith('root.server', { type: 'server', message: 'parameter error' });
  });

  it('puts a catalogue error that belongs to a field on that field, any other in the notice', () => {
    const { form, setError } = fakeForm({ phone: '' });
    applyRefusal(form, refusal('WRONG_PHONE_NUMBER'), { fieldErrors: { WRONG_PHONE_NUMBER: 'phone' } });
    expect(setError).toHaveBeenLastCalledWith('phone', { type: 'server', message: 'server:wrong phone number' }, { shouldFocus: true });
    applyRefusal(form, refusal('WRONG_VERIFICATION_CODE'), { fieldErrors: { WRONG_PHONE_NUMBER: 'phone' } });
    expect(setError).toHaveBeenLastCalledWith('root.server', { type: 'server', message: 'wrong verification code' });
  });

  it('maps a server field to a differently named form field', () => {
    const { form, setError } = fakeForm({ email: '' });
    applyRefusal(form, refusal('PARAMETER_ERROR', { fields: [{ field: 'body.target', message: validationMessages.emailFormat }] }), {
      fields: { 'body.target': 'email' },
    });
    expect(setError).toHaveBeenCalledWith('email', { type: 'server', message: 'rule:emailFormat' }, { shouldFocus: true });
  });

  it('leaves a session error to the session rules, and calls anything else a system error', () => {
    const { form, setError } = fakeForm({});
    applyRefusal(form, refusal('TOKEN_NOT_FOUND'));
    expect(setError).not.toHaveBeenCalled();
    applyRefusal(form, new TypeError('boom'));
    expect(setError).toHaveBeenCalledWith('root.server', { type: 'server', message: 'system error' });
  });

  it('reads the parts of a refusal without a form', () => {
    expect(refusalParts(refusal('PARAMETER_ERROR', null), {}, () => true)).toEqual({ fields: [], notice: 'parameter error' });
    expect(refusalParts(refusal('NICKNAME_ALREADY_SET'), {}, () => true)).toEqual({ fields: [], notice: errorCatalogue.NICKNAME_ALREADY_SET.msg });
  });
});
