import { describe, expect, it } from 'vitest';
import { bannerTarget, CONTENT_ID, contentPath, publishedDate, SEARCH_MAX_LENGTH, searchTerm } from './content-logic.ts';

describe('contentPath: every kind opens on its spec page', () => {
  it('news, help, courses and lessons, about', () => {
    expect(contentPath({ id: '7', kind: 'announcement' })).toBe('/news/detail/7');
    expect(contentPath({ id: '8', kind: 'industry_news' })).toBe('/industrynewdetail/8');
    expect(contentPath({ id: '9', kind: 'help' })).toBe('/helpcenterdetail/9');
    expect(contentPath({ id: '10', kind: 'course' })).toBe('/course/detail/10');
    // Lessons are content items too, read on the course route.
    expect(contentPath({ id: '11', kind: 'lesson' })).toBe('/course/detail/11');
    expect(contentPath({ id: '1', kind: 'about' })).toBe('/aboutus');
  });

  it('a banner has no page of its own (it opens its link)', () => {
    expect(contentPath({ id: '12', kind: 'banner' })).toBeNull();
  });
});

describe('searchTerm: what the search box sends', () => {
  it('collapses spaces and trims; nothing to search is null', () => {
    expect(searchTerm('  withdrawal   fee ')).toBe('withdrawal fee');
    expect(searchTerm('   ')).toBeNull();
    expect(searchTerm('')).toBeNull();
    expect(searchTerm(null)).toBeNull();
  });

  it('keeps words of any script and turns control characters into spaces', () => {
    expect(searchTerm('رسوم\u0000السحب')).toBe('رسوم السحب');
    expect(searchTerm('提现\t手续费')).toBe('提现 手续费');
  });

  it('stops at the API’s length, at a whole character', () => {
    const long = '😀'.repeat(SEARCH_MAX_LENGTH + 5);
    const term = searchTerm(long) ?? '';
    expect(Array.from(term)).toHaveLength(SEARCH_MAX_LENGTH);
    expect(term.endsWith('\ud83d')).toBe(false);
  });
});

describe('bannerTarget', () => {
  it('leads only to pages of the app', () => {
    expect(bannerTarget('/helpcenter')).toBe('/helpcenter');
    expect(bannerTarget('/proof?page=2')).toBe('/proof?page=2');
    expect(bannerTarget('//evil.example')).toBeNull();
    expect(bannerTarget('https://evil.example')).toBeNull();
    expect(bannerTarget(null)).toBeNull();
  });
});

describe('publishedDate and ids', () => {
  it('a time is the spec’s date in the device’s zone', () => {
    const ms = new Date(2026, 10, 29, 12, 0, 0).getTime();
    expect(publishedDate(ms)).toBe('2026-11-29');
  });

  it('an id of an address is digits without a leading zero, as the API’s', () => {
    expect(CONTENT_ID.test('12')).toBe(true);
    expect(CONTENT_ID.test('012')).toBe(false);
    expect(CONTENT_ID.test('abc')).toBe(false);
    expect(CONTENT_ID.test('1'.repeat(20))).toBe(false);
  });
});
