import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { jobTime } from '../../src/fieldeditor/maintenance/maintenance.presenter.ts';
import { CHEAP_HASH_COST, NO_TEST_KNOBS, testKnobsFrom } from '../../src/platform/test-knobs.ts';

describe('job and event-log configuration', () => {
  it('has production defaults', () => {
    const c = loadConfig({});
    expect(c.jobs).toEqual({ pollMs: 5000, leaseMs: 60_000, tickMs: 3_600_000 });
    expect(c.authFailuresRetentionHours).toBe(24);
  });

  it('reads the variables, and refuses bad values naming them', () => {
    const c = loadConfig({ JOBS_POLL_MS: '50', JOBS_LEASE_MS: '1500', JOBS_TICK_MS: '1000' });
    expect(c.jobs).toEqual({ pollMs: 50, leaseMs: 1500, tickMs: 1000 });
    expect(() => loadConfig({ JOBS_LEASE_MS: '5' })).toThrow(ConfigError);
    expect(() => loadConfig({ JOBS_POLL_MS: 'soon' })).toThrow(/JOBS_POLL_MS/);
  });

  it('keeps the test and benchmark knobs out of the configuration (platform/test-knobs.ts)', () => {
    // The knobs' variables are no settings: the configuration neither reads nor refuses them.
    const knobs = { ADDON_PAIR_TEST_JOB_HOLD_MS: '2500', ADDON_PAIR_BENCH_NO_EVENT_LOG: '1', ADDON_PAIR_TEST_CHEAP_HASHES: '1' };
    expect(loadConfig(knobs)).toEqual(loadConfig({}));
    expect(JSON.stringify(loadConfig({}))).not.toMatch(/hold|eventLog/i);
    expect(testKnobsFrom({})).toBe(NO_TEST_KNOBS);
    expect(NO_TEST_KNOBS).toEqual({ jobHoldMs: 0, eventLogWrites: true });
    expect(testKnobsFrom(knobs)).toEqual({ jobHoldMs: 2500, eventLogWrites: false, hashCost: CHEAP_HASH_COST });
    expect(testKnobsFrom({ ADDON_PAIR_BENCH_NO_EVENT_LOG: '0' })).toEqual(NO_TEST_KNOBS);
    expect(testKnobsFrom({ ADDON_PAIR_TEST_CHEAP_HASHES: '0' })).toStrictEqual(NO_TEST_KNOBS);
    expect(() => testKnobsFrom({ ADDON_PAIR_TEST_JOB_HOLD_MS: 'soon' })).toThrow(/ADDON_PAIR_TEST_JOB_HOLD_MS/);
    expect(() => testKnobsFrom({ ADDON_PAIR_TEST_JOB_HOLD_MS: '' })).toThrow(/ADDON_PAIR_TEST_JOB_HOLD_MS/);
    expect(() => testKnobsFrom({ ADDON_PAIR_BENCH_NO_EVENT_LOG: 'maybe' })).toThrow(/ADDON_PAIR_BENCH_NO_EVENT_LOG/);
    expect(() => testKnobsFrom({ ADDON_PAIR_TEST_CHEAP_HASHES: 'yes' })).toThrow(/ADDON_PAIR_TEST_CHEAP_HASHES/);
  });

  it("formats job times as YYYY-MM-dd'T'HH:mm:ss+0000 in UTC", () => {
    expect(jobTime(new Date('2026-03-04T05:06:07.890+02:00'))).toBe('2026-03-04T03:06:07+0000');
    expect(jobTime(null)).toBeNull();
  });
});
