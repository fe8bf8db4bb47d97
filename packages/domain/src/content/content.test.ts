import { describe, expect, it } from 'vitest';
import { contentLanguageChain, isLive, pickTranslation, plainTextProblems, searchableText, searchConfiguration } from './content.ts';
import { markdownPlainText, markdownProblems, translationProblems } from './markdown.ts';

const problemsOf = (body: string) => markdownProblems('body', body, 50_000).map((p) => p.problem);

describe('content markdown safety', () => {
  it('accepts the Markdown the help articles use', () => {
    const body = [
      '## Fees',
      '',
      'Swaps cost **0.2 %**; see [the rules](/assets/withdraw) or [PostgreSQL](https://www.postgresql.org/).',
      '',
      '| Fee | Amount |',
      '|---|---|',
      '| Transfer | 0.10 % |',
      '',
      '- one',
      '- ~~two~~',
      '',
      '![chart](/home/content/images/12)',
      '',
      'Write to <mailto:help@keel.example>.',
    ].join('\n');
    expect(problemsOf(body)).toEqual([]);
  });

  it.each([
    ['<script>alert(1)</script>', 'html'],
    ['Hello <img src=x onerror=alert(1)>', 'html'],
    ['<!-- hidden -->', 'html'],
    ['text <b>bold</b>', 'html'],
    ['<a href="https://x">x</a>', 'html'],
    ['[x](javascript:alert(1))', 'script_url'],
    ['[x](JaVaScRiPt:alert(1))', 'script_url'],
    ['[x](java%0ascript:alert(1))', 'link_not_allowed'],
    ['[x][r]\n\n[r]: javascript:alert(1)', 'script_url'],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)', 'script_url'],
    ['[x](vbscript:msgbox)', 'script_url'],
    ['[x](//evil.example/)', 'link_not_allowed'],
    ['[x](ftp://evil.example/)', 'link_not_allowed'],
    ['![x](https://evil.example/pixel.gif)', 'image_not_allowed'],
    ['![x](/home/content/images/abc)', 'image_not_allowed'],
    ['![x][r]\n\n[r]: /home/content/images/1', 'image_not_allowed'],
    ['# A second title', 'heading_level'],
  ])('refuses %j (%s)', (body, problem) => {
    expect(problemsOf(body)).toContain(problem);
  });

  it('refuses control characters and bidi overrides, and bodies over the bound', () => {
    expect(problemsOf('a\u0007b')).toContain('control_character');
    expect(problemsOf('a\u202Eb')).toContain('control_character');
    expect(markdownProblems('body', 'x'.repeat(11), 10).map((p) => p.problem)).toEqual(['too_long']);
    expect(problemsOf('   ')).toContain('empty');
  });

  it('keeps plain-text fields plain', () => {
    const check = (text: string) => plainTextProblems('title', text, 120, true).map((p) => p.problem);
    expect(check('Withdrawal rules: 0 < 1 and 2 > 1')).toEqual([]);
    expect(check('<script>x</script>')).toContain('html');
    expect(check('< img src=x>')).toContain('html');
    expect(check('go javascript :alert(1)')).toContain('script_url');
    expect(check('')).toContain('empty');
    expect(check('x'.repeat(121))).toContain('too_long');
    expect(check('提现规则'.repeat(30))).toEqual([]);
  });

  it('checks every field of a translation; a banner may have no body', () => {
    const fields = translationProblems('help', { title: '<i>t</i>', summary: '<b>s</b>', body: '<p>b</p>' }).map((p) => p.field);
    expect(fields.sort()).toEqual(['body', 'summary', 'title']);
    expect(translationProblems('banner', { title: 'Proof', summary: 'Check us', body: '' })).toEqual([]);
    expect(translationProblems('help', { title: 'Proof', summary: '', body: '' }).map((p) => p.problem)).toEqual(['empty']);
  });

  it('gives the words without markup', () => {
    expect(markdownPlainText('## Fees\n\nSwaps cost **0.2 %** [here](/x).')).toBe('Fees Swaps cost 0.2 % here .');
  });
});

describe('content languages', () => {
  it('falls back from a formal variant to its base language, then to English', () => {
    expect(contentLanguageChain('fr-pro')).toEqual(['fr-pro', 'fr', 'en']);
    expect(contentLanguageChain('ar')).toEqual(['ar', 'en']);
    expect(pickTranslation('fr-pro', ['en', 'fr'])).toEqual({ language: 'fr', fallback: false });
    expect(pickTranslation('ar', ['en', 'fr'])).toEqual({ language: 'en', fallback: true });
    expect(pickTranslation('en', ['en'])).toEqual({ language: 'en', fallback: false });
    expect(pickTranslation('ja', ['ja', 'en'])).toEqual({ language: 'ja', fallback: false });
    expect(pickTranslation('ja', ['de'])).toBeUndefined();
  });

  it('names a stemming configuration where PostgreSQL has one, simple otherwise', () => {
    expect(searchConfiguration('de')).toBe('german');
    expect(searchConfiguration('it-pro')).toBe('italian');
    expect(searchConfiguration('ar')).toBe('arabic');
    expect(searchConfiguration('zh-Hans')).toBe('simple');
    expect(searchConfiguration('vi')).toBe('simple');
  });

  it('cuts Chinese and Japanese into overlapping pairs and leaves other text alone', () => {
    expect(searchableText('zh-Hans', '提现规则').trim().split(/\s+/)).toEqual(['提现', '现规', '规则']);
    expect(searchableText('ja', '出金 ルール USDT').trim().split(/\s+/)).toEqual(['出金', 'ルー', 'ール', 'USDT']);
    expect(searchableText('zh-Hant', '幣').trim()).toBe('幣');
    expect(searchableText('de', '提现规则')).toBe('提现规则');
  });
});

describe('content visibility', () => {
  it('is live only when published and its time has come', () => {
    expect(isLive({ status: 'published', publishAtMs: 1000 }, 1000)).toBe(true);
    expect(isLive({ status: 'published', publishAtMs: 2000 }, 1000)).toBe(false);
    expect(isLive({ status: 'draft', publishAtMs: null }, 1000)).toBe(false);
    expect(isLive({ status: 'unpublished', publishAtMs: 1000 }, 5000)).toBe(false);
  });
});
