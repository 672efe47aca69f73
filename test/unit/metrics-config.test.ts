import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

const TOKEN = 'a-long-enough-metrics-token';

describe('metrics configuration', () => {
  it('is off unless METRICS_TOKEN or METRICS_PORT is set', () => {
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '  ' }).metrics).toBeUndefined();
  });

  it('serves on the main port with a token, or on a port of its own (with or without one)', () => {
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metrics).toEqual({ token: TOKEN, port: 0, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', HOST: '0.0.0.0' }).metrics).toEqual({ token: undefined, port: 9464, host: '0.0.0.0' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', METRICS_TOKEN: TOKEN }).metrics).toEqual({ token: TOKEN, port: 9464, host: '10.0.0.5' });
  });

  it('refuses a short or spaced token, a bad port and the main port', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ PORT: '9000', METRICS_PORT: '9000' })).toThrow(/METRICS_PORT: must differ from PORT/);
  });
});
