// Issue 42 ("Signing in"): twelve people signing in at the same moment on a server with one hashing slot all get
// in (each waits its turn, up to LOGIN_QUEUE_SECONDS) instead of eleven 503 LOGIN_BUSY answers; an address that
// has failed logins is still refused at once while the checks are busy. The real server, with the real scrypt cost.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir, startServerProcess, type ServerProcess } from '../helpers/server-process.ts';

const ADMIN = { Authorization: `Basic ${Buffer.from('admin:burst-admin-pw').toString('base64')}` };
const USERS = Array.from({ length: 12 }, (_, i) => `burst${i}`);

describe('a burst of sign-ins on one hashing slot', { timeout: 240_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-burst-'));
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({
      DATA_DIR: migratedDataDir(path.join(dir, 'data')),
      ADMIN_PASSWORD: 'burst-admin-pw',
      DEMO: '0',
      LOGIN_HASH_CONCURRENCY: '1',
      // The default 10 s holds twelve hashes of up to 0.8 s each (0.24 s on a quiet 2-core machine; hash-pool.test.ts
      // checks the default bound). A test machine running many suites at once hashes ten times slower (3 s a hash
      // was seen), so the bound is raised here: what this test shows is that the burst queues instead of 503.
      LOGIN_QUEUE_SECONDS: '120',
      // Loopback is the proxy, so one test process can be several clients (X-Forwarded-For).
      TRUST_PROXY: '127.0.0.1,::1',
    });
    // Made through REST, as an administrator would (each new password is hashed, so the server knows a hash's time).
    for (const name of USERS) {
      const res = await fetch(`${server.url}/rest/api/2/user`, {
        method: 'POST',
        headers: { ...ADMIN, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, password: `${name}-Passw0rd!` }),
      });
      expect(res.status).toBe(201);
    }
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const signIn = (username: string, password: string, from: string) =>
    fetch(`${server.url}/rest/auth/1/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': from },
      body: JSON.stringify({ username, password }),
    });

  it('signs all twelve in, while a client with failed logins is refused at once (503 LOGIN_BUSY)', async () => {
    // The guesser failed once before the burst.
    expect((await signIn('burst0', 'wrong', '203.0.113.66')).status).toBe(401);
    let burstDone = false;
    const burst = Promise.all(USERS.map((name, i) => signIn(name, `${name}-Passw0rd!`, `198.51.100.${i + 1}`))).then((answers) => {
      burstDone = true;
      return answers;
    });
    // A moment later the queue holds most of the burst: seconds of hashing on one slot.
    await new Promise((r) => setTimeout(r, 400));
    const guess = await signIn('burst1', 'another-guess', '203.0.113.66');
    const guessAnsweredDuringBurst = !burstDone;
    const answers = await burst;
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(guess.status).toBe(503);
    expect(await guess.json()).toMatchObject({ errorMessages: [expect.stringContaining('Too many logins are being checked right now')] });
    expect(guessAnsweredDuringBurst).toBe(true);
  });
});
