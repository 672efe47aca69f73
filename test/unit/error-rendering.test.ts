import express from 'express';
import supertest from 'supertest';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/platform/http/app-error.ts';
import { createErrorHandler, createNotFoundHandler } from '../../src/platform/http/error-handler.ts';
import { renderHostJson } from '../../src/platform/http/renderers.ts';
import { normalizeError } from '../../src/platform/http/normalize-error.ts';
import { parseWith } from '../../src/platform/http/validate.ts';

function appThrowing(err: unknown, render = renderHostJson) {
  const app = express();
  app.use(express.json({ limit: 100 }));
  app.post('/boom', () => {
    throw err;
  });
  app.use(createNotFoundHandler(), createErrorHandler(render));
  return supertest(app);
}

describe('normalizeError', () => {
  it('keeps AppErrors as they are', () => {
    const e = new AppError(418, 'TEAPOT', 'short and stout');
    expect(normalizeError(e)).toBe(e);
  });

  it('maps PostgreSQL unique violations to 409 and serialization failures to 503', () => {
    expect(normalizeError({ code: '23505' }).status).toBe(409);
    expect(normalizeError({ code: '40001' }).status).toBe(503);
  });

  it('hides unknown errors behind a generic 500 and keeps the cause', () => {
    const cause = new Error('secret detail');
    const e = normalizeError(cause);
    expect(e.status).toBe(500);
    expect(e.message).not.toContain('secret');
    expect(e.cause).toBe(cause);
  });
});

describe('host JSON renderer', () => {
  it('renders an AppError with its status, headers and message', async () => {
    const res = await appThrowing(new AppError(403, 'FORBIDDEN', 'No.', { headers: { 'X-Test': '1' } })).post('/boom').expect(403);
    expect(res.headers['x-test']).toBe('1');
    expect(res.body).toEqual({ errorMessages: ['No.'], errors: {} });
  });

  it('puts field problems into errors', async () => {
    let thrown: unknown;
    try {
      parseWith(z.object({ name: z.string() }), {});
    } catch (err) {
      thrown = err;
    }
    const res = await appThrowing(thrown).post('/boom').expect(400);
    expect(Object.keys(res.body.errors)).toEqual(['name']);
    expect(res.body.errorMessages).toEqual([]);
  });

  it('never shows the message or stack of an unexpected error', async () => {
    const res = await appThrowing(new Error('password=hunter2 at /src/x.ts:1')).post('/boom').expect(500);
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|x\.ts/);
    expect(res.body.errorMessages).toEqual(['Internal server error']);
  });

  it('answers invalid JSON with 400 and oversized bodies with 413, in JSON', async () => {
    const bad = await appThrowing(null).post('/boom').set('Content-Type', 'application/json').send('{"a":').expect(400);
    expect(bad.body.errorMessages[0]).toMatch(/not valid JSON/);
    const big = await appThrowing(null)
      .post('/boom')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ a: 'x'.repeat(500) }))
      .expect(413);
    expect(big.body.errorMessages[0]).toMatch(/too large/);
  });

  it('answers unknown routes with a JSON 404, not an HTML page', async () => {
    const res = await appThrowing(null).get('/nowhere').expect(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });
});
