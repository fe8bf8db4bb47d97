import type { FieldErrors, FieldValues, ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { readFieldMessage } from '../../shared/form-messages.ts';
import { contentResolver, createFormSchema, firstError, settingsFormSchema, translationSchemaFor } from './content-form.ts';

// The editor's forms are checked by the contracts' own schemas: the refusals an editor meets
// before sending are the server's, each said by an admin.* key.

const options = { shouldUseNativeValidation: false, fields: {} } as unknown as ResolverOptions<FieldValues>;

/** The catalogue key of each field's error (nested fields by their dotted path). */
function keys(errors: FieldErrors, prefix = ''): Record<string, string | undefined> {
  const found: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    const path = `${prefix}${name}`;
    if (typeof (value as { type?: unknown }).type === 'string') found[path] = readFieldMessage((value as { message?: string }).message)?.key;
    else Object.assign(found, keys(value as FieldErrors, `${path}.`));
  }
  return found;
}

async function check<T extends Record<string, unknown>>(schema: Parameters<typeof contentResolver>[0], values: T) {
  const result = await contentResolver(schema)(values as never, undefined, options);
  return { values: result.values as Record<string, unknown>, errors: keys(result.errors) };
}

describe('a translation', () => {
  it('refuses what the sanitiser refuses, each in its own words', async () => {
    const { errors } = await check(translationSchemaFor('announcement'), {
      title: 'Hello <b>there</b>',
      summary: '',
      body: '# Big\n\n[x](javascript:alert(1))\n\n![pic](https://evil.example/a.png)\n\n<script>alert(1)</script>',
    });
    expect(errors.body).toMatch(/^admin\.content\.rule\.content(Html|ScriptUrl|ImageNotAllowed|HeadingLevel)$/);
    expect(errors.title).toBeDefined();
  });

  it('names a script link, an outside image and a level-1 heading', async () => {
    const body = async (text: string) => (await check(translationSchemaFor('help'), { title: 'T', summary: '', body: text })).errors.body;
    expect(await body('[x](javascript:alert(1))')).toBe('admin.content.rule.contentScriptUrl');
    expect(await body('![x](https://evil.example/a.png)')).toBe('admin.content.rule.contentImageNotAllowed');
    expect(await body('# Title again')).toBe('admin.content.rule.contentHeadingLevel');
    expect(await body('<div>hi</div>')).toBe('admin.content.rule.contentHtml');
  });

  it('accepts Markdown with ## headings, outside links and Keel’s content images', async () => {
    const { errors, values } = await check(translationSchemaFor('announcement'), {
      title: 'New markets',
      summary: 'Two more.',
      body: '## What changes\n\nSee [fees](/helpcenter) and [the paper](https://example.org).\n\n![chart](/home/content/images/3)',
    });
    expect(errors).toEqual({});
    expect(values.title).toBe('New markets');
  });

  it('wants a body, except for a banner', async () => {
    expect((await check(translationSchemaFor('announcement'), { title: 'T', summary: '', body: '  ' })).errors.body).toBe('admin.form.required');
    expect((await check(translationSchemaFor('banner'), { title: 'T', summary: 'S', body: '' })).errors).toEqual({});
    expect((await check(translationSchemaFor('banner'), { title: '', summary: '', body: '' })).errors.title).toBe('admin.form.required');
  });
});

describe('the settings', () => {
  it('reads the markets from one line, and says which symbol is wrong', async () => {
    const good = await check(settingsFormSchema, { category: null, parentId: null, sortOrder: '3', marketSymbols: 'btc/usdt, ETH/USDT', linkPath: null, sample: false });
    expect(good.errors).toEqual({});
    expect(good.values).toMatchObject({ marketSymbols: ['BTC/USDT', 'ETH/USDT'], sortOrder: 3 });
    const bad = await check(settingsFormSchema, { category: null, parentId: null, sortOrder: 0, marketSymbols: 'BTC/USDT bitcoin', linkPath: null, sample: false });
    expect(bad.errors).toEqual({ 'marketSymbols.1': 'admin.content.rule.marketSymbol' });
  });

  it('refuses a banner link that is not an in-app path', async () => {
    const { errors } = await check(settingsFormSchema, { category: null, parentId: null, sortOrder: 0, marketSymbols: '', linkPath: 'https://evil.example', sample: false });
    expect(errors).toEqual({ linkPath: 'admin.content.rule.contentLinkPath' });
  });

  it('checks "new item" as the create contract does, with the English words nested', async () => {
    const { errors } = await check(createFormSchema('help'), {
      kind: 'help',
      category: null,
      parentId: null,
      sortOrder: 0,
      marketSymbols: '',
      linkPath: null,
      sample: false,
      english: { title: '', summary: '', body: '<img src=x>' },
    });
    expect(errors).toEqual({ 'english.title': 'admin.form.required', 'english.body': 'admin.content.rule.contentHtml' });
  });
});

describe('firstError', () => {
  it('finds the error of a list field, or the field’s own', () => {
    const own = { type: 'custom', message: 'x' };
    expect(firstError(own)).toBe(own);
    expect(firstError([undefined, own])).toBe(own);
    expect(firstError(undefined)).toBeUndefined();
  });
});
