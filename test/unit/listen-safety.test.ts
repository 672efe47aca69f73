import { describe, expect, it } from 'vitest';
import { isLoopbackHost, listenRefusal, loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { createLogger } from '../../src/platform/log/logger.ts';

// Issue 44, low finding: the container image started without ADMIN_PASSWORD served admin/admin and alice/alice on
// every interface. Beyond loopback the server now refuses to start without ADMIN_PASSWORD, and demo data is only
// the default on a loopback address (`npm start` keeps it).
describe('listening beyond loopback (issue 44)', () => {
  it('knows the loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.org', '127.0.0.1.example.org']) expect(isLoopbackHost(h), h).toBe(false);
  });

  it('refuses HOST beyond loopback without ADMIN_PASSWORD, with a line naming both', () => {
    expect(listenRefusal(loadConfig({ HOST: '0.0.0.0' }))).toMatch(/HOST=0\.0\.0\.0 .*ADMIN_PASSWORD is not set/);
    expect(listenRefusal(loadConfig({ HOST: '0.0.0.0', ADMIN_PASSWORD: 'a-long-secret' }))).toBeUndefined();
    expect(listenRefusal(loadConfig({ HOST: '127.0.0.1' }))).toBeUndefined();
    expect(listenRefusal(loadConfig({}))).toBeUndefined();
  });

  it('loads demo data by default only on loopback', () => {
    expect(loadConfig({}).demo).toBe(true);
    expect(loadConfig({ HOST: '0.0.0.0', ADMIN_PASSWORD: 'x' }).demo).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', ADMIN_PASSWORD: 'x', DEMO: '1' }).demo).toBe(true);
  });

  it('startServer stops before opening anything', async () => {
    const config = loadConfig({ HOST: '0.0.0.0', PORT: '0', DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
    await expect(startServer(config, createLogger('silent'))).rejects.toThrow(/ADMIN_PASSWORD is not set/);
  });
});
