import { Writable } from 'node:stream';
import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createHttpLogger, createLogger, redactUrl } from '../../src/platform/log/logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, logger: createLogger('info', stream) };
}

describe('request logging', () => {
  it('logs id, method, path, status and time, and echoes the id', async () => {
    const { lines, logger } = capture();
    const app = express().use(createHttpLogger(logger)).get('/x', (_req, res) => res.send('ok'));
    const res = await supertest(app).get('/x').expect(200);
    const entry = JSON.parse(lines.at(-1)!);
    expect(res.headers['x-request-id']).toBe(entry.req.id);
    expect(entry).toMatchObject({ req: { method: 'GET', url: '/x' }, res: { statusCode: 200 } });
    expect(typeof entry.responseTime).toBe('number');
  });

  it('keeps a sane incoming request id and replaces an insane one', async () => {
    const { logger } = capture();
    const app = express().use(createHttpLogger(logger)).get('/x', (_req, res) => res.send('ok'));
    expect((await supertest(app).get('/x').set('X-Request-Id', 'abc-123')).headers['x-request-id']).toBe('abc-123');
    expect((await supertest(app).get('/x').set('X-Request-Id', 'a b <script>')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never writes Authorization, cookies or access tokens', async () => {
    const { lines, logger } = capture();
    const app = express().use(createHttpLogger(logger)).get('/x', (req, res) => {
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
});

describe('redactUrl', () => {
  it('leaves URLs without credentials alone', () => {
    expect(redactUrl('/a/b?x=1&y=2')).toBe('/a/b?x=1&y=2');
    expect(redactUrl('/a')).toBe('/a');
  });
});
