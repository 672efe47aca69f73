import { Writable } from 'node:stream';
import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl, type Logger } from '../../src/platform/log/logger.ts';
import { requestTrackingStep, useRequestLog } from '../../src/platform/log/request-logger.ts';

function loggedApp(logger: Logger) {
  const app = express();
  useRequestLog(app, logger);
  // The pipeline's first step, as the app's pipeline runs it (src/platform/http/pipeline.ts).
  const tracking = requestTrackingStep(logger);
  app.use((req, res, next) => tracking.run(req, res, next, undefined));
  return app;
}

function capture(level = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, logger: createLogger(level, stream) };
}

describe('request logging', () => {
  it('logs id, method, path, status and time, and echoes the id', async () => {
    const { lines, logger } = capture();
    const app = loggedApp(logger).get('/x', (_req, res) => res.send('ok'));
    const res = await supertest(app).get('/x').expect(200);
    const entry = JSON.parse(lines.at(-1)!);
    expect(res.headers['x-request-id']).toBe(entry.req.id);
    expect(entry).toMatchObject({ req: { method: 'GET', url: '/x' }, res: { statusCode: 200 } });
    expect(typeof entry.responseTime).toBe('number');
  });

  it('keeps a sane incoming request id and replaces an insane one', async () => {
    const { logger } = capture();
    const app = loggedApp(logger).get('/x', (_req, res) => res.send('ok'));
    expect((await supertest(app).get('/x').set('X-Request-Id', 'abc-123')).headers['x-request-id']).toBe('abc-123');
    expect((await supertest(app).get('/x').set('X-Request-Id', 'a b <script>')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never writes Authorization, cookies or access tokens', async () => {
    const { lines, logger } = capture();
    const app = loggedApp(logger).get('/x', (req, res) => {
      req.log.info({ req }, 'handler saw the request');
      res.send('ok');
    });
    await supertest(app)
      .get('/x?access_token=SECRET-TOKEN&a=1')
      .set('Authorization', 'Bearer SECRET-BEARER')
      .set('Cookie', 'session=SECRET-COOKIE');
    const all = lines.join('\n');
    expect(all).not.toMatch(/SECRET-(TOKEN|BEARER|COOKIE)/);
    expect(all).toContain('access_token=%5Bredacted%5D');
  });

  it('logs 4xx at warn and 5xx at error with the error, one line per request', async () => {
    const { lines, logger } = capture();
    const app = loggedApp(logger)
      .get('/missing', (_req, res) => res.status(404).send('no'))
      .get('/broken', (_req, res) => {
        res.err = new Error('disk on fire');
        res.status(500).send('sorry');
      });
    await supertest(app).get('/missing').expect(404);
    await supertest(app).get('/broken').expect(500);
    const [missing, broken] = lines.map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(missing).toMatchObject({ level: 40, msg: 'request completed', res: { statusCode: 404 } });
    expect(broken).toMatchObject({ level: 50, msg: 'request errored', res: { statusCode: 500 }, err: { message: 'disk on fire' } });
  });

  it('writes nothing for requests below the level, but still logs errors', async () => {
    const { lines, logger } = capture('warn');
    const app = loggedApp(logger)
      .get('/ok', (_req, res) => res.send('ok'))
      .get('/bad', (_req, res) => res.status(400).send('bad'));
    await supertest(app).get('/ok').expect(200);
    expect(lines).toHaveLength(0);
    await supertest(app).get('/bad').expect(400);
    expect(lines).toHaveLength(1);
  });

  it('logs a 429 (a limit refusing) at info, so a flood of refused requests writes nothing at warn', async () => {
    const { lines, logger } = capture('warn');
    const app = loggedApp(logger).get('/limited', (_req, res) => res.status(429).send('later'));
    for (let i = 0; i < 3; i++) await supertest(app).get('/limited').expect(429);
    expect(lines).toHaveLength(0);
    const verbose = capture('info');
    await supertest(loggedApp(verbose.logger).get('/limited', (_req, res) => res.status(429).send('later'))).get('/limited').expect(429);
    expect(JSON.parse(verbose.lines[0]!)).toMatchObject({ level: 30, res: { statusCode: 429 } });
  });

  it("gives handlers a logger bound to the request, made on first use", async () => {
    const { lines, logger } = capture();
    let sameTwice = false;
    const app = loggedApp(logger).get('/x', (req, res) => {
      sameTwice = req.log === req.log;
      req.log.info('from the handler');
      res.send('ok');
    });
    const res = await supertest(app).get('/x').set('X-Request-Id', 'trace-42');
    expect(res.headers['x-request-id']).toBe('trace-42');
    expect(sameTwice).toBe(true);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'from the handler', req: { id: 'trace-42', method: 'GET', url: '/x' } });
  });
});

describe('redactUrl', () => {
  it('leaves URLs without credentials alone', () => {
    expect(redactUrl('/a/b?x=1&y=2')).toBe('/a/b?x=1&y=2');
    expect(redactUrl('/a')).toBe('/a');
  });
});
