// Issue 30: a web session used within its idle limit never ends on idleness (before, last use was written only
// once a minute while the limit counted from that write, so a session used every 15 s with a one-minute limit
// ended at 60 s), and the number of sessions per user is capped, the oldest ended first.
import { describe, expect, it, vi } from 'vitest';
import { hashSessionId } from '../../../src/web/sessions/session-cookie.ts';
import { uniq, useTestApp, type TestApp } from '../../helpers/test-app.ts';

const SESSION = '/rest/auth/1/session';
const MYSELF = '/rest/api/2/myself';

async function signIn(t: TestApp, name: string, password: string): Promise<string> {
  const res = await t.http.post(SESSION).send({ username: name, password }).expect(200);
  const pair = (res.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
  return pair;
}

const idHashOf = (cookie: string) => hashSessionId(cookie.split('=')[1]!);

describe('the idle limit of a busy session (SESSION_IDLE_MINUTES=1)', () => {
  const t = useTestApp({ SESSION_IDLE_MINUTES: '1' });
  const sessions = () => t.services.db.knex('web_sessions');

  it('keeps a session used every 15 s alive for far longer than its idle limit', async () => {
    const user = await t.createUser(uniq('busy'));
    const cookie = await signIn(t, user.name, user.password);
    const idHash = idHashOf(cookie);
    // Eight uses 15 s apart (two minutes). Time passing is written directly: every stored time of the session
    // moves 15 s into the past, as if the clock had moved on (waiting would take the two minutes).
    for (let use = 0; use < 8; use++) {
      await sessions()
        .where({ id_hash: idHash })
        .update({
          last_seen_at: t.services.db.knex.raw(`last_seen_at - interval '15 seconds'`),
          created_at: t.services.db.knex.raw(`created_at - interval '15 seconds'`),
        });
      await t.http.get(MYSELF).set('Cookie', cookie).expect(200);
      // The use is recorded (15 s is more than a tenth of the limit) before the clock moves on again.
      await vi.waitFor(async () => {
        const row = await sessions().where({ id_hash: idHash }).select(t.services.db.knex.raw(`extract(epoch from now() - last_seen_at) as ago`)).first();
        expect(Number(row.ago)).toBeLessThan(5);
      });
    }
  });

  it('still ends a session left alone for its idle limit (and at most a tenth more)', async () => {
    const user = await t.createUser(uniq('idle'));
    const cookie = await signIn(t, user.name, user.password);
    // Written directly: a session last used 67 s ago (the limit, a tenth of it, and a second).
    await sessions().where({ id_hash: idHashOf(cookie) }).update({ last_seen_at: t.services.db.knex.raw(`now() - interval '67 seconds'`) });
    await t.http.get(MYSELF).set('Cookie', cookie).expect(401);
  });
});

describe('sessions per user (SESSION_MAX_PER_USER=3)', () => {
  const t = useTestApp({ SESSION_MAX_PER_USER: '3' });

  it('ends the oldest sessions of a user beyond the cap, and leaves other users alone', async () => {
    const user = await t.createUser(uniq('many'));
    const other = await t.createUser(uniq('other'));
    const otherCookie = await signIn(t, other.name, other.password);
    const cookies: string[] = [];
    for (let i = 0; i < 5; i++) cookies.push(await signIn(t, user.name, user.password));
    for (const [i, cookie] of cookies.entries()) {
      await t.http.get(MYSELF).set('Cookie', cookie).expect(i < 2 ? 401 : 200);
    }
    const rows = await t.services.db.knex('web_sessions').join('users', 'users.id', 'web_sessions.user_id').where('users.name', user.name).pluck('id_hash');
    expect(rows.sort()).toEqual(cookies.slice(2).map(idHashOf).sort());
    await t.http.get(MYSELF).set('Cookie', otherCookie).expect(200);
  });
});
