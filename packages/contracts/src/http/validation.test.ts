import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssue, genericValidationRules, parameterErrorField, ruleOfMessage, validationMessages, validationRules } from './validation.ts';

/** The problem zod's per-parse error map would be asked to word, for each issue of `value`. */
function problems(schema: z.ZodType, value: unknown) {
  const seen: unknown[] = [];
  const result = schema.safeParse(value, {
    error: (issue) => {
      seen.push(describeIssue(issue as Parameters<typeof describeIssue>[0]));
      return undefined;
    },
  });
  // zod words its issues when they are first read.
  void result.error?.issues;
  return seen;
}

describe('validation rules', () => {
  it('gives each custom message one rule, and finds it back by its text', () => {
    const texts = Object.values(validationMessages);
    expect(new Set(texts).size).toBe(texts.length);
    for (const [rule, text] of Object.entries(validationMessages)) expect(ruleOfMessage(text)).toBe(rule);
    expect(ruleOfMessage('Too small: expected string to have >=1 characters')).toBeUndefined();
    expect(validationRules).toEqual(expect.arrayContaining([...genericValidationRules, 'sixDigits']));
  });

  it('names generic issues by their code and limits', () => {
    expect(problems(z.string().min(3), 'ab')).toEqual([{ rule: 'tooShort', values: { minimum: 3 } }]);
    expect(problems(z.string().max(3), 'abcd')).toEqual([{ rule: 'tooLong', values: { maximum: 3 } }]);
    expect(problems(z.number().min(1), 0)).toEqual([{ rule: 'tooSmall', values: { minimum: 1 } }]);
    expect(problems(z.number().positive(), 0)).toEqual([{ rule: 'greaterThan', values: { minimum: 0 } }]);
    expect(problems(z.number().lt(10), 10)).toEqual([{ rule: 'lessThan', values: { maximum: 10 } }]);
    expect(problems(z.array(z.string()).max(1), ['a', 'b'])).toEqual([{ rule: 'tooMany', values: { maximum: 1 } }]);
    expect(problems(z.number(), 'x')).toEqual([{ rule: 'notANumber' }]);
    expect(problems(z.number().int(), 1.5)).toEqual([{ rule: 'notAWholeNumber' }]);
    expect(problems(z.number().multipleOf(5), 7)).toEqual([{ rule: 'notMultipleOf', values: { divisor: 5 } }]);
    expect(problems(z.string().regex(/^a+$/), 'b')).toEqual([{ rule: 'format' }]);
    expect(problems(z.email(), 'a@')).toEqual([{ rule: 'emailFormat' }]);
    expect(problems(z.enum(['a', 'b']), 'c')).toEqual([{ rule: 'choose' }]);
    expect(problems(z.bigint().max(5n), 6n)).toEqual([{ rule: 'tooBig', values: { maximum: 5 } }]);
  });

  it('says "required" for nothing typed, a missing value and text of spaces', () => {
    expect(problems(z.string().min(1), '')).toEqual([{ rule: 'required' }]);
    expect(problems(z.string(), undefined)).toEqual([{ rule: 'required' }]);
    expect(problems(z.string().regex(/^a+$/), '  ')).toEqual([{ rule: 'required' }]);
    expect(problems(z.enum(['a']), '')).toEqual([{ rule: 'required' }]);
  });

  it('builds the parameter-error field a use case answers from the table', () => {
    expect(parameterErrorField('body.target', 'emailFormat')).toEqual({ field: 'body.target', message: 'incorrect email format' });
  });
});
