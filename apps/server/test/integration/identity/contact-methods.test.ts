import { validationMessages } from '@keel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

// Issue 14: a contact method is checked by its kind, in the contract (so the user app shows the
// same rule before sending, ADR 0027): phone and WhatsApp an international number, e-mail an
// address, Telegram a username, WeChat and LINE their IDs; "other" stays free text.

interface Answer<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}

describe('contact methods checked by kind', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await registerViaApi(t.app, 'kinds0001')).token;
  });
  afterAll(() => t.close());

  const put = async (methods: { kind: string; value: string }[]) =>
    (await t.app.inject({ method: 'PUT', url: '/home/user/contact-methods', headers: { authorization: token }, payload: { methods } })).json() as Answer<{
      methods?: unknown;
      fields?: { field: string; message: string }[];
    }>;

  it('accepts a value of the shape its kind needs, and stores it as typed', async () => {
    const methods = [
      { kind: 'phone', value: '+49 170 1234567' },
      { kind: 'whatsapp', value: '0049 (170) 123-4567' },
      { kind: 'email', value: 'Ana@Example.com' },
      { kind: 'telegram', value: '@ana_trades' },
      { kind: 'wechat', value: 'ana-trades_1' },
    ];
    expect(await put(methods)).toMatchObject({ code: 200, data: { methods } });
    expect(await put([{ kind: 'line', value: 'ana.trades' }, { kind: 'telegram', value: 'ana_trades' }, { kind: 'other', value: 'Signal: ask me' }])).toMatchObject({
      code: 200,
    });
  });

  it.each([
    ['phone', '12345', 'phoneFormat'],
    ['whatsapp', 'call me', 'phoneFormat'],
    ['email', 'ana@', 'emailFormat'],
    ['telegram', 'ana trades', 'telegramHandle'],
    ['telegram', '@ana', 'telegramHandle'],
    ['telegram', `@${'a'.repeat(33)}`, 'telegramHandle'],
    ['wechat', '1ana_trades', 'wechatId'],
    ['line', 'ana!', 'lineId'],
  ] as const)('refuses a %s contact "%s" as "parameter error" on that value, naming the rule', async (kind, value, rule) => {
    const answer = await put([
      { kind: 'other', value: 'fine' },
      { kind, value },
    ]);
    expect(answer).toMatchObject({ code: 400, msg: 'parameter error' });
    expect(answer.data.fields).toEqual([{ field: 'body.methods.1.value', message: validationMessages[rule] }]);
  });

  it('refuses a value that is too short once, with the length rule, not the kind rule as well', async () => {
    const answer = await put([{ kind: 'telegram', value: 'x' }]);
    expect(answer.data.fields).toEqual([{ field: 'body.methods.0.value', message: validationMessages.contactValue }]);
  });

  it('nothing is stored by a refused request, and methods saved before the kind rules are still shown', async () => {
    await t.db.query("UPDATE users SET contact_methods = $1::jsonb WHERE username = 'kinds0001'", [JSON.stringify([{ kind: 'telegram', value: 'old handle' }])]);
    expect((await put([{ kind: 'email', value: 'nope' }])).code).toBe(400);
    const security = (await t.app.inject({ method: 'GET', url: '/home/user/security', headers: { authorization: token } })).json() as Answer<{
      contactMethods: unknown;
    }>;
    expect(security).toMatchObject({ code: 200, data: { contactMethods: [{ kind: 'telegram', value: 'old handle' }] } });
  });
});
