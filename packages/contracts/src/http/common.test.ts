import { describe, expect, it } from 'vitest';
import { idCursorSchema, idSchema, MAX_ID, multilineText, plainText, secretText, typedText } from './common.ts';

// The shared input schemas of issue 13: every id and every typed text of every contract goes
// through one of these, so what they refuse never reaches the database.

const accepts = (schema: { safeParse: (value: unknown) => { success: boolean } }, value: unknown) => schema.safeParse(value).success;

describe('idSchema', () => {
  it('takes 1 up to 2^63 − 1 and nothing else; a malformed value is refused, never thrown', () => {
    for (const id of ['1', '42', '9223372036854775807', MAX_ID.toString()]) expect(accepts(idSchema, id)).toBe(true);
    for (const bad of ['0', '01', '-1', '1.0', '1e3', ' 1', '', '9223372036854775808', '9999999999999999999', '1'.repeat(20), 'a'.repeat(19), '-'.repeat(19), 1, null]) {
      expect(accepts(idSchema, bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('says one thing about a bad id, not two', () => {
    const result = idSchema.safeParse('x'.repeat(19));
    expect(result.success ? [] : result.error.issues).toHaveLength(1);
  });

  it('idCursorSchema is the same bound with 0 allowed (before the first id)', () => {
    expect(['0', '1', MAX_ID.toString()].map((value) => accepts(idCursorSchema, value))).toEqual([true, true, true]);
    expect(['00', '-1', '9223372036854775808', 'z'.repeat(19)].map((value) => accepts(idCursorSchema, value))).toEqual([false, false, false, false]);
  });
});

describe('text schemas', () => {
  const controls = ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009b'];
  const loneSurrogates = ['\ud800', '\udfff'];

  it('typedText trims, bounds, and refuses control characters and lone surrogates; markup is only text to it', () => {
    const schema = typedText(10);
    expect(schema.parse('  abc  ')).toBe('abc');
    expect(accepts(schema, '<b>&amp;</b>')).toBe(false); // 12 characters
    expect(accepts(schema, '<b>x</b>')).toBe(true);
    expect(accepts(schema, 'x'.repeat(11))).toBe(false);
    for (const bad of [...controls, ...loneSurrogates, '\n', '\t']) expect(accepts(schema, `a${bad}b`), JSON.stringify(bad)).toBe(false);
    expect(accepts(schema, 'a\u{1F642}b')).toBe(true); // a pair is one character, not a lone half
    expect(accepts(schema, '\u202ea')).toBe(true); // a format character is not a control character
  });

  it('plainText also refuses angle brackets', () => {
    expect(accepts(plainText(20), 'a note')).toBe(true);
    expect(accepts(plainText(20), '<script>')).toBe(false);
    for (const bad of [...controls, ...loneSurrogates]) expect(accepts(plainText(20), `a${bad}b`)).toBe(false);
    expect(accepts(plainText(20).min(3), '  ab  ')).toBe(false);
  });

  it('multilineText keeps line breaks and tabs, refuses every other control character', () => {
    expect(multilineText(50).parse('  line one\r\nline two\tend  ')).toBe('line one\r\nline two\tend');
    expect(accepts(multilineText(50), '<b>shown as text</b>')).toBe(true);
    for (const bad of [...controls, ...loneSurrogates]) expect(accepts(multilineText(50), `a${bad}b`)).toBe(false);
  });

  it('secretText is not trimmed, and refuses control characters', () => {
    expect(secretText(20).parse(' pass word ')).toBe(' pass word ');
    for (const bad of [...controls, ...loneSurrogates]) expect(accepts(secretText(20), `pass${bad}`)).toBe(false);
  });
});
