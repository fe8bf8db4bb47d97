import { ApiError, localeCodes, validationMessages } from '@keel/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFieldMessage } from '../../shared/form-messages.ts';
import {
  altFromFileName,
  contentMessage,
  displayStatus,
  epochMsToLocalInput,
  formatLocal,
  formatUtc,
  imageMarkdown,
  insertAtCursor,
  localInputToEpochMs,
  localTimeZone,
  placeRefusal,
  scheduleProblem,
  settingsForKind,
  settingsFormValues,
  settingsOf,
  splitSymbols,
  translationStates,
} from './content-model.ts';

const NOW = Date.UTC(2026, 10, 29, 12, 0);
const keyOf = (text: string) => readFieldMessage(text)?.key;

describe('an item’s status as the editor shows it', () => {
  it('calls a publication time still to come "scheduled", and a past one "published"', () => {
    expect(displayStatus({ status: 'published', publishAtMs: NOW + 60_000 }, NOW)).toBe('scheduled');
    expect(displayStatus({ status: 'published', publishAtMs: NOW }, NOW)).toBe('published');
    expect(displayStatus({ status: 'published', publishAtMs: NOW - 1 }, NOW)).toBe('published');
  });

  it('keeps draft and unpublished, whatever time they carry', () => {
    expect(displayStatus({ status: 'draft', publishAtMs: null }, NOW)).toBe('draft');
    expect(displayStatus({ status: 'unpublished', publishAtMs: NOW + 60_000 }, NOW)).toBe('unpublished');
    expect(displayStatus({ status: 'unpublished', publishAtMs: NOW - 60_000 }, NOW)).toBe('unpublished');
  });
});

describe('each language’s state', () => {
  it('lists the 13 languages in order: written and current, English changed since, or missing', () => {
    const states = translationStates({
      translations: [
        { language: 'de', updatedAtMs: NOW, stale: false },
        { language: 'ar', updatedAtMs: NOW - 10, stale: true },
      ],
      missingLanguages: localeCodes.filter((code) => !['en', 'de', 'ar'].includes(code)),
    });
    expect(states.map((state) => state.language)).toEqual([...localeCodes]);
    expect(states.find((state) => state.language === 'en')?.state).toBe('ok');
    expect(states.find((state) => state.language === 'de')?.state).toBe('ok');
    expect(states.find((state) => state.language === 'ar')?.state).toBe('stale');
    expect(states.filter((state) => state.state === 'missing')).toHaveLength(10);
  });
});

describe('settings by kind', () => {
  const all = { category: 'wallet' as const, parentId: '7', sortOrder: 4, marketSymbols: ['BTC/USDT'], linkPath: '/earn', sample: true };

  it('offers each kind only the settings the server accepts for it', () => {
    expect(settingsOf('help')).toEqual(['category', 'sortOrder']);
    expect(settingsOf('lesson')).toEqual(['parentId', 'sortOrder']);
    expect(settingsOf('industry_news')).toEqual(['marketSymbols', 'sample']);
    expect(settingsOf('banner')).toEqual(['linkPath', 'sortOrder']);
    expect(settingsOf('about')).toEqual([]);
  });

  it('sends the others at their defaults, so a value left from another kind never reaches the server', () => {
    expect(settingsForKind('announcement', all)).toEqual({ category: null, parentId: null, sortOrder: 0, marketSymbols: ['BTC/USDT'], linkPath: null, sample: false });
    expect(settingsForKind('lesson', all)).toEqual({ category: null, parentId: '7', sortOrder: 4, marketSymbols: [], linkPath: null, sample: false });
    expect(settingsForKind('banner', all)).toEqual({ category: null, parentId: null, sortOrder: 4, marketSymbols: [], linkPath: '/earn', sample: false });
  });

  it('writes the markets as one line and reads them back as symbols in capitals', () => {
    expect(settingsFormValues({ category: null, parentId: null, sortOrder: 0, marketSymbols: ['BTC/USDT', 'ETH/USDT'], linkPath: null, sample: false }).marketSymbols).toBe('BTC/USDT, ETH/USDT');
    expect(splitSymbols(' btc/usdt,ETH/USDT  sol/usdt; ')).toEqual(['BTC/USDT', 'ETH/USDT', 'SOL/USDT']);
    expect(splitSymbols('')).toEqual([]);
  });
});

describe('the schedule, typed on the member’s clock', () => {
  const zone = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Europe/Berlin';
  });
  afterEach(() => {
    process.env.TZ = zone;
  });

  it('reads a datetime-local value in the browser’s time zone and shows it back in UTC', () => {
    // Berlin is UTC+1 in winter and UTC+2 in summer.
    const winter = localInputToEpochMs('2026-12-01T09:30');
    expect(winter).toBe(Date.UTC(2026, 11, 1, 8, 30));
    expect(formatUtc(winter!)).toBe('2026/12/01 08:30');
    expect(formatLocal(winter!)).toBe('2026/12/01 09:30');
    expect(localInputToEpochMs('2026-07-01T09:30')).toBe(Date.UTC(2026, 6, 1, 7, 30));
    expect(localInputToEpochMs('2026-07-01T09:30:15')).toBe(Date.UTC(2026, 6, 1, 7, 30, 15));
    expect(localTimeZone()).toBe('Europe/Berlin');
  });

  it('writes a time back as the field’s value (minutes) on the same clock', () => {
    expect(epochMsToLocalInput(Date.UTC(2026, 11, 1, 8, 30, 45))).toBe('2026-12-01T09:30');
    expect(localInputToEpochMs(epochMsToLocalInput(Date.UTC(2027, 2, 3, 23, 5)))).toBe(Date.UTC(2027, 2, 3, 23, 5));
  });

  it('refuses empty, malformed, impossible and skipped wall times', () => {
    expect(localInputToEpochMs('')).toBeNull();
    expect(localInputToEpochMs('2026-12-01')).toBeNull();
    expect(localInputToEpochMs('2026-02-30T10:00')).toBeNull();
    expect(localInputToEpochMs('2026-12-01T24:00')).toBeNull();
    // 29 March 2026, 02:30 does not exist in Berlin: the clocks go from 02:00 to 03:00.
    expect(localInputToEpochMs('2026-03-29T02:30')).toBeNull();
  });

  it('asks for a time still to come', () => {
    const now = Date.UTC(2026, 11, 1, 8, 0);
    expect(scheduleProblem('', now)).toBe('missing');
    expect(scheduleProblem('2026-12-01T08:59', now)).toBe('past');
    expect(scheduleProblem('2026-12-01T09:00', now)).toBe('past');
    expect(scheduleProblem('2026-12-01T09:01', now)).toBeNull();
  });
});

describe('writing an image into the Markdown', () => {
  it('replaces the selection and puts the cursor after what was inserted', () => {
    expect(insertAtCursor('Hello world', 6, 11, 'there')).toEqual({ text: 'Hello there', cursor: 11 });
    expect(insertAtCursor('abc', 10, 10, 'X')).toEqual({ text: 'abcX', cursor: 4 });
    expect(insertAtCursor('abc', 2, 1, 'X')).toEqual({ text: 'abXc', cursor: 3 });
  });

  it('puts the image on a paragraph of its own, its text without brackets or line breaks', () => {
    expect(imageMarkdown('Fees table', '/home/content/images/4', '')).toBe('![Fees table](/home/content/images/4)\n\n');
    expect(imageMarkdown('a [b]', '/home/content/images/4', 'Intro')).toBe('\n\n![a  b](/home/content/images/4)\n\n');
    expect(imageMarkdown('x', '/home/content/images/4', 'Intro\n')).toBe('\n![x](/home/content/images/4)\n\n');
    expect(imageMarkdown('x', '/home/content/images/4', 'Intro\n\n')).toBe('![x](/home/content/images/4)\n\n');
    expect(altFromFileName('withdrawal_rules-2026.png')).toBe('withdrawal rules 2026');
  });
});

describe('the server’s refusals on the form', () => {
  const refusal = (fields: { field: string; message: string }[]) => new ApiError({ code: 400, msg: 'parameter error', data: { fields } });

  it('says each content rule in its own words', () => {
    expect(keyOf(contentMessage(validationMessages.contentHtml))).toBe('admin.content.rule.contentHtml');
    expect(keyOf(contentMessage(validationMessages.contentScriptUrl))).toBe('admin.content.rule.contentScriptUrl');
    expect(keyOf(contentMessage(validationMessages.contentHeadingLevel))).toBe('admin.content.rule.contentHeadingLevel');
    expect(keyOf(contentMessage(validationMessages.contentLinkPath))).toBe('admin.content.rule.contentLinkPath');
    expect(keyOf(contentMessage(validationMessages.required))).toBe('admin.form.required');
    expect(keyOf(contentMessage('must be a course'))).toBe('admin.content.problem.notACourse');
    expect(keyOf(contentMessage('something zod said'))).toBe('admin.form.invalid');
  });

  it('puts a parameter error on the field it names, nested words under their prefix', () => {
    const error = refusal([
      { field: 'body', message: validationMessages.contentImageNotAllowed },
      { field: 'body.english.title', message: validationMessages.contentHtml },
      { field: 'body.marketSymbols.1', message: validationMessages.marketSymbol },
      { field: 'nowhere', message: 'x' },
    ]);
    expect(placeRefusal(error, ['english.title', 'english.body', 'marketSymbols'], 'english').map((each) => [each.field, keyOf(each.message)])).toEqual([
      ['english.body', 'admin.content.rule.contentImageNotAllowed'],
      ['english.title', 'admin.content.rule.contentHtml'],
      ['marketSymbols', 'admin.content.rule.marketSymbol'],
    ]);
    expect(placeRefusal(refusal([{ field: 'parentId', message: 'must be a course' }]), ['parentId']).map((each) => each.field)).toEqual(['parentId']);
  });

  it('places nothing for another refusal', () => {
    expect(placeRefusal(new ApiError({ code: 403, msg: 'permission denied', data: null }), ['title'])).toEqual([]);
    expect(placeRefusal(new Error('offline'), ['title'])).toEqual([]);
  });
});
