import { describe, expect, it } from 'vitest';
import { renderEmbeddedMemory, type EmbeddedMemory } from '../../bench/lib/embedded-memory.ts';

const measured = (over: Partial<EmbeddedMemory> = {}): EmbeddedMemory => ({
  firstStartSec: 2.6,
  firstStartPeakMb: 249,
  firstIdleMb: 234,
  loadPeakMb: 267,
  loadRequestsPerSec: 31740,
  restartSec: 1.3,
  restartIdleMb: 192,
  ...over,
});

describe('renderEmbeddedMemory', () => {
  it('checks the RSS at every point against 300 MB and the first start against 3 s (issue 42)', () => {
    const [summary, rss, firstStart] = renderEmbeddedMemory(measured());
    expect(summary).toMatch(/^embedded default \(fresh DATA_DIR, demo data\): first start 2\.6 s \(peak 249 MB\)/);
    expect(rss).toBe('PASS embedded-default: RSS < 300 MB at every point (worst 267 MB)');
    expect(firstStart).toMatch(/^PASS embedded-default: first start < 3 s \(got 2\.6 s for the built server on a new folder;/);
  });

  it('fails a slow first start and an unknown or high RSS', () => {
    const [, rss, firstStart] = renderEmbeddedMemory(measured({ firstStartSec: 3.4, loadPeakMb: null }));
    expect(rss).toMatch(/^FAIL embedded-default: RSS < 300 MB/);
    expect(firstStart).toMatch(/^FAIL embedded-default: first start < 3 s \(got 3\.4 s/);
  });
});
