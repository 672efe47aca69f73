import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildRouter, type Endpoint } from '../../src/platform/http/endpoint.ts';
import { AppError } from '../../src/platform/http/app-error.ts';
import type { AuthUser } from '../../src/platform/auth/auth-user.ts';

// buildRouter on its own: guards from the declared access and versions, literal segments before parameters,
// closed prefixes, and the contradictions it refuses to build.

const answer = (text: string) => (_req: express.Request, res: express.Response) => void res.type('text/plain').send(text);
const ep = (over: Partial<Endpoint<void>> & Pick<Endpoint<void>, 'method' | 'path'>): Endpoint<void> => ({
  tag: 't',
  summary: 's',
  access: 'anyone',
  responses: {},
  handle: answer(`${over.method} ${over.path}`),
  ...over,
});

/** An app with the router, a header that signs a user in (`x-user: admin` for an administrator), statuses as text. */
function appWith(router: express.Router) {
  const app = express();
  app.use((req, _res, next) => {
    const who = req.headers['x-user'];
    if (typeof who === 'string') req.user = { id: 1, name: who, isAdmin: who === 'admin', isSystemAdmin: false, via: 'basic' } as AuthUser;
    next();
  });
  app.use(router);
  app.use((_req, res) => void res.status(404).send('404'));
  const errors: ErrorRequestHandler = (err: AppError, _req, res, _next) => void res.status(err.status).send(String(err.status));
  app.use(errors);
  return request(app);
}

const unavailable = () => new AppError(412, 'VERSION', 'not under this version');

describe('buildRouter', () => {
  it('takes the guard of a configured access (the metrics token) from its spec, and refuses to build without it', async () => {
    const scrape = ep({ method: 'get', path: '/metrics', access: 'metrics' });
    expect(() => buildRouter([scrape], undefined)).toThrow(/access metrics, but its router has no guard/);
    const guard: express.RequestHandler = (req, res, next) => (req.headers['x-token'] === 'right' ? next() : void res.status(401).send('401'));
    const http = appWith(buildRouter([scrape], undefined, { guards: { metrics: guard } }));
    await http.get('/metrics').expect(401);
    await http.get('/metrics').set('x-user', 'admin').expect(401);
    await http.get('/metrics').set('x-token', 'right').expect(200, 'get /metrics');
  });

  it('guards each route by its declared access', async () => {
    const http = appWith(buildRouter([ep({ method: 'get', path: '/open' }), ep({ method: 'get', path: '/mine', access: 'user' }), ep({ method: 'post', path: '/all', access: 'admin' })], undefined));
    await http.get('/open').expect(200, 'get /open');
    await http.get('/mine').expect(401);
    await http.get('/mine').set('x-user', 'bob').expect(200);
    await http.post('/all').set('x-user', 'bob').expect(403);
    await http.post('/all').set('x-user', 'admin').expect(200);
  });

  it('registers literal segments before parameters, whatever the declared order', async () => {
    const http = appWith(buildRouter([ep({ method: 'put', path: '/options/{id}' }), ep({ method: 'put', path: '/options/sort' })], undefined));
    await http.put('/options/sort').expect(200, 'put /options/sort');
    await http.put('/options/7').expect(200, 'put /options/{id}');
  });

  it('answers the version error under another version, after or before the access check as declared', async () => {
    const endpoints = [
      ep({ method: 'get', path: '/later', access: 'admin', versions: { under: ['1'] } }),
      ep({ method: 'get', path: '/first', access: 'admin', versions: { under: ['1'], beforeAccess: true } }),
    ];
    const old = appWith(buildRouter(endpoints, undefined, { version: { id: '1.2', unavailable } }));
    await old.get('/later').expect(401);
    await old.get('/later').set('x-user', 'admin').expect(412);
    await old.get('/first').expect(412);
    const current = appWith(buildRouter(endpoints, undefined, { version: { id: '1', unavailable } }));
    await current.get('/later').set('x-user', 'admin').expect(200);
  });

  it('closes a prefix to callers below its endpoints: an unknown path there is 401 before it is 404', async () => {
    const http = appWith(buildRouter([ep({ method: 'get', path: '/user/things', access: 'user' }), ep({ method: 'get', path: '/else' })], undefined, { closedPrefixes: ['/user'] }));
    await http.get('/user/unknown').expect(401);
    await http.delete('/user/things').expect(401);
    await http.get('/user/unknown').set('x-user', 'bob').expect(404);
    await http.get('/elsewhere').expect(404);
  });

  it('refuses declarations that contradict each other', () => {
    expect(() => buildRouter([ep({ method: 'get', path: '/a', access: 'user' }), ep({ method: 'get', path: '/a/b', access: 'admin' })], undefined, { closedPrefixes: ['/a'] })).toThrow(/closed prefix/);
    expect(() => buildRouter([ep({ method: 'get', path: '/a' })], undefined, { closedPrefixes: ['/b'] })).toThrow(/no endpoint/);
    expect(() => buildRouter([ep({ method: 'get', path: '/rest/a' })], undefined, { mountedAt: '/other' })).toThrow(/not under/);
    expect(() => buildRouter([ep({ method: 'get', path: '/a', versions: { under: ['1'] } })], undefined)).toThrow(/serves no version/);
  });
});
