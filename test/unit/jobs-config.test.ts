import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { jobTime } from '../../src/fieldeditor/maintenance/maintenance.presenter.ts';

describe('job and event-log configuration', () => {
  it('has production defaults', () => {
    const c = loadConfig({});
    expect(c.jobs).toEqual({ pollMs: 5000, leaseMs: 60_000, tickMs: 3_600_000, holdMs: 0 });
    expect(c.authFailuresRetentionHours).toBe(24);
    expect(c.eventLogWrites).toBe(true);
  });

  it('reads the variables, and refuses bad values naming them', () => {
    const c = loadConfig({ JOBS_POLL_MS: '50', JOBS_LEASE_MS: '1500', JOBS_TICK_MS: '1000', JOBS_TEST_HOLD_MS: '2500', EVENT_LOG_WRITES: '0' });
    expect(c.jobs).toEqual({ pollMs: 50, leaseMs: 1500, tickMs: 1000, holdMs: 2500 });
    expect(c.eventLogWrites).toBe(false);
    expect(() => loadConfig({ JOBS_LEASE_MS: '5' })).toThrow(ConfigError);
    expect(() => loadConfig({ JOBS_POLL_MS: 'soon' })).toThrow(/JOBS_POLL_MS/);
    expect(() => loadConfig({ EVENT_LOG_WRITES: 'maybe' })).toThrow(/EVENT_LOG_WRITES/);
  });

  it("formats job times as YYYY-MM-dd'T'HH:mm:ss+0000 in UTC", () => {
    expect(jobTime(new Date('2026-03-04T05:06:07.890+02:00'))).toBe('2026-03-04T03:06:07+0000');
    expect(jobTime(null)).toBeNull();
  });
});
