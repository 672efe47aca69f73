import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenRefusal, type Config } from './config.ts';
import { openDatabase } from './platform/db/open-database.ts';
import type { EmbeddedDatabase } from './platform/db/embedded-pglite.ts';
import { StartupError } from './platform/startup-error.ts';
import { createLogger, type Logger } from './platform/log/logger.ts';
import { createServices, type AppServices } from './services.ts';
import { NO_TEST_KNOBS, TEST_HASH_COST, testKnobsFrom } from './platform/test-knobs.ts';
import { createRequestListener } from './app.ts';
import { bootstrap, type BootstrapResult } from './bootstrap.ts';
import { createMetricsServer } from './platform/metrics/metrics.routes.ts';

export interface RunningServer {
  services: AppServices;
  server: http.Server;
  port: number;
  boot: BootstrapResult;
  stop(): Promise<void>;
}

/** The HTTP server settings shared by production and tests. */
export function createHttpServer(app: http.RequestListener): http.Server {
  // Large Authorization headers must reach our code (to answer 401), not die in Node's 16 KiB limit with a 431.
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, app);
  // Longer than the usual 60 s idle time-out of load balancers, so they never reuse a connection we closed.
  server.keepAliveTimeout = 65_000;
  return server;
}

/**
 * config → database → bootstrap → app → listen. `stop()` drains connections, then closes the database.
 * `embedded`: the embedded database, when the caller started opening it before this module loaded (main.ts).
 */
export async function startServer(
  config: Config,
  log: Logger = createLogger(config.logLevel),
  embedded?: Promise<EmbeddedDatabase>,
): Promise<RunningServer> {
  const refused = listenRefusal(config);
  if (refused) throw new StartupError(refused);
  const db = await openDatabase(config, log, { embedded });
  let services: AppServices;
  let boot: BootstrapResult;
  try {
    // The one reader of the test and benchmark knobs: process tests cannot hand a child process a hook.
    const knobs = testKnobsFrom(process.env);
    // Never silent: a server with weak password hashes or no event log must say so in its log.
    if (knobs !== NO_TEST_KNOBS) log.warn({ knobs: { ...knobs, hashCost: knobs.hashCost === TEST_HASH_COST ? 'test (cheap)' : 'default' } }, 'test knobs are turned (ADDON_PAIR_TEST_* / ADDON_PAIR_BENCH_*): this server is for tests only');
    services = createServices(config, db, log, { knobs });
    boot = await bootstrap(services);
  } catch (err) {
    await db.close();
    throw err;
  }
  const server = createHttpServer(createRequestListener(services));
  const listen = (s: http.Server, port: number, host: string) =>
    new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, host, () => resolve());
    });
  try {
    await listen(server, config.port, config.host);
  } catch (err) {
    await db.close();
    throw describeListenError(err, config);
  }
  const port = (server.address() as AddressInfo).port;
  // METRICS_PORT: the metrics on a listener of their own, which a firewall can keep to the monitoring network.
  const metricsServer = services.metrics && config.metrics?.port ? createMetricsServer(services.metrics, config.metrics.token) : undefined;
  if (metricsServer) {
    try {
      await listen(metricsServer, config.metrics!.port, config.metrics!.host);
    } catch (err) {
      server.close();
      await db.close();
      throw err;
    }
  }
  // Background jobs run beside the requests, never inside one (src/platform/jobs).
  services.jobs.start();
  const workers = services.features.flatMap((f) => f.workers ?? []);
  for (const worker of workers) worker.start();

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // First: no new claims, this node's runs interrupted and recorded, before the database goes away.
      await Promise.all([services.jobs.stop(), ...workers.map((w) => w.stop())]);
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownGraceMs).unref());
      await Promise.race([closed, grace]);
      server.closeAllConnections();
      await db.close();
    })());
  return { services, server, port, boot, stop };
}

/** One line for the listen failures a person causes (the database is migrated by then, which is harmless). */
function describeListenError(err: unknown, config: Config): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const at = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') return new StartupError(`Port ${config.port} is already in use (${at}): stop the other program or set PORT to a free port.`, { cause: err });
  if (code === 'EACCES') return new StartupError(`Not allowed to listen on ${at} (EACCES): use a port above 1023 (PORT) or run with the right to bind it.`, { cause: err });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new StartupError(`Cannot listen on ${at} (${code}): set HOST to an address of this machine (127.0.0.1 or 0.0.0.0).`, { cause: err });
  return err;
}
