import { describe, expect, it } from 'vitest';
import { afterId, moveBody, sortBody, createOptionBody, updateOptionBody } from '../../src/fieldeditor/options/options.schemas.ts';
import { defaultWriteBody } from '../../src/fieldeditor/options/defaults.schemas.ts';
import { canonicalLocale, comparatorFor, sortByValue } from '../../src/fieldeditor/options/sort.ts';
import { OptionListCache } from '../../src/fieldeditor/options/options.cache.ts';
import { LocalChangeFeed } from '../../src/platform/events/change-feed.ts';
import { CachedBody } from '../../src/platform/http/cached-body.ts';
import { FIELD_OPTIONS_TOPIC } from '../../src/fieldeditor/shared/fieldeditor.topics.ts';
import { TRACKER_TOPIC } from '../../src/tracker/tracker-write.ts';

describe('move body', () => {
  it('reads the id from a number, a digit string or the last path segment', () => {
    expect(afterId(10020)).toBe(10020);
    expect(afterId(' 10020 ')).toBe(10020);
    expect(afterId('/rest/trackercustomfieldeditorplugin/1/user/customfields/1/contexts/default/options/10020')).toBe(10020);
    expect(afterId('10/20/30/')).toBe(30);
    expect(afterId('http://host/x/options/77?foo=1#frag')).toBe(77);
    for (const bad of ['', '/', 'abc', '12a', '0', '99999999999', '-5']) expect(afterId(bad), bad).toBeUndefined();
  });
  it('prefers position First over after, and refuses other positions', () => {
    expect(moveBody.parse({ after: '5', position: 'first' })).toEqual({ first: true });
    expect(moveBody.parse({ after: 5, position: null })).toEqual({ afterId: 5 });
    expect(moveBody.safeParse({ position: 'Last' }).error?.issues[0]?.path).toEqual(['position']);
    expect(moveBody.safeParse({}).error?.issues[0]?.path).toEqual(['after']);
  });
});

describe('option bodies', () => {
  it('trims values, coerces string booleans and ignores id, sequence and unknown members', () => {
    expect(createOptionBody.parse({ optionvalue: '  x ', disabled: ' TRUE ', id: 'z', sequence: [], other: 1 })).toEqual({ optionvalue: 'x', disabled: true });
    expect(updateOptionBody.parse({ disabled: 'false' })).toEqual({ disabled: false });
    expect(updateOptionBody.parse({ optionvalue: null })).toEqual({ optionvalue: null });
    expect(createOptionBody.safeParse({ optionvalue: null }).success).toBe(false);
    expect(createOptionBody.safeParse({ optionvalue: 'ok', disabled: 1 }).error?.issues[0]?.path).toEqual(['disabled']);
    expect(createOptionBody.safeParse({ optionvalue: 'é'.repeat(256) }).success).toBe(false);
  });
  it('reads ids in default bodies from numbers and digit strings only', () => {
    expect(defaultWriteBody.parse({ optionId: '12', optionIds: [1, '2'] })).toEqual({ optionId: 12, optionIds: [1, 2] });
    for (const bad of [{ optionId: 0 }, { optionId: -1 }, { optionId: 1.5 }, { optionId: '1e3' }, { optionIds: 'x' }, { optionIds: [true] }]) {
      expect(defaultWriteBody.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('sort', () => {
  it('validates and canonicalises locales; defaults strength and order', () => {
    expect(canonicalLocale('de-de')).toBe('de-DE');
    expect(canonicalLocale('en-EN')).toBe('en-EN');
    expect(canonicalLocale('not a tag')).toBeUndefined();
    expect(sortBody.parse({ locale: 'sv-se' })).toEqual({ locale: 'sv-SE', strength: 'TERTIARY', order: 'ASCENDING' });
  });
  it('maps strengths to collator sensitivities and keeps ties stable', () => {
    const items = ['b', 'Á', 'a', 'A'].map((value, i) => ({ value, i }));
    const values = (strength: 'PRIMARY' | 'SECONDARY' | 'TERTIARY', order: 'ASCENDING' | 'DESCENDING' = 'ASCENDING') =>
      sortByValue(items, { locale: 'en-US', strength, order }).map((x) => x.value);
    expect(values('PRIMARY')).toEqual(['Á', 'a', 'A', 'b']);
    expect(values('SECONDARY')).toEqual(['a', 'A', 'Á', 'b']);
    expect(values('TERTIARY')).toEqual(['a', 'A', 'Á', 'b']);
    expect(values('PRIMARY', 'DESCENDING')).toEqual(['b', 'Á', 'a', 'A']);
    const identical = comparatorFor({ locale: 'en-US', strength: 'IDENTICAL', order: 'ASCENDING' });
    expect(identical('caf\u00e9', 'cafe\u0301')).toBeGreaterThan(0);
    expect(comparatorFor({ locale: 'en-US', strength: 'TERTIARY', order: 'ASCENDING' })('caf\u00e9', 'cafe\u0301')).toBe(0);
  });
});

describe('option list cache', () => {
  it('keeps a list until an option write or a tracker change anywhere clears it', async () => {
    const changes = new LocalChangeFeed();
    const cache = new OptionListCache(changes);
    let loads = 0;
    const load = async () => new CachedBody(`[${++loads}]`);
    expect((await cache.list(1, null, load)).text()).toBe('[1]');
    expect((await cache.list(1, null, load)).text()).toBe('[1]');
    expect((await cache.list(1, 5, load)).text()).toBe('[2]');
    await changes.publish(FIELD_OPTIONS_TOPIC);
    expect((await cache.list(1, null, load)).text()).toBe('[3]');
    await changes.publish(TRACKER_TOPIC);
    expect((await cache.list(1, null, load)).text()).toBe('[4]');
  });

  it('does not keep a list read before a write that committed while it was read', async () => {
    const changes = new LocalChangeFeed();
    const cache = new OptionListCache(changes);
    const stale = cache.list(1, null, async () => {
      await changes.publish(FIELD_OPTIONS_TOPIC); // the write commits while this read is under way
      return new CachedBody('[old]');
    });
    expect((await stale).text()).toBe('[old]');
    expect((await cache.list(1, null, async () => new CachedBody('[new]'))).text()).toBe('[new]');
  });
});
