import { hash, timingSafeEqual } from 'node:crypto';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { asAuthUser, type Authenticator } from '../../platform/auth/authenticator.ts';
import type { Logger } from '../../platform/log/logger.ts';
import { generateSessionId, hashSessionId } from './session-cookie.ts';
import { touchIntervalMs } from './session-idle.ts';
import type { SessionsRepository } from './sessions.repository.ts';

export interface SessionLimits {
  /** Unused for this long, a session ends (never sooner; at most `touchIntervalMs` later: session-idle.ts). */
  idleMinutes: number;
  /** This long after sign-in, a session ends whatever its use. */
  maxHours: number;
  /** Live sessions per user; a sign-in beyond it ends the oldest. Unset: no cap. */
  maxPerUser?: number;
}

export type SignInResult =
  | { ok: true; id: string; user: AuthUser; priorFailures: number; previousSignIn: Date | undefined }
  | { ok: false; reason: 'failed' | 'denied' };


/** What a session remembers of the password: a hash of its stored hash, so any password change ends it. */
export function passwordStamp(passwordHash: string): string {
  return hash('sha256', passwordHash, 'hex');
}

function sameStamp(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Sign-in sessions of the web interface. Every lookup reads the database (one statement), so a session
 * ended on one node (sign-out, deleted user, changed password) is refused by every node at once, with no
 * cache to invalidate. Passwords are checked by the Authenticator, with exactly the lockout rules of Basic.
 */
export class SessionsService {
  constructor(
    private readonly repo: SessionsRepository,
    private readonly authenticator: Authenticator,
    private readonly limits: SessionLimits,
    private readonly log?: Logger,
  ) {}

  /** `client`: the address the request came from, for the limit of failed logins per address. */
  async signIn(username: string, password: string, client?: string): Promise<SignInResult> {
    const outcome = await this.authenticator.password(username, password, client);
    if (!outcome.ok) return outcome;
    const id = generateSessionId();
    const idHash = hashSessionId(id);
    await this.repo.deleteEnded(this.limits.idleMinutes);
    await this.repo.insert(
      {
        idHash,
        userId: outcome.user.id,
        passwordStamp: passwordStamp(outcome.passwordHash),
        expiresAt: new Date(Date.now() + this.limits.maxHours * 3_600_000),
      },
      this.limits.maxPerUser,
    );
    const previousSignIn = await this.repo.previousSignIn(outcome.user.id, idHash);
    return { ok: true, id, user: asAuthUser(outcome.user, 'session'), priorFailures: outcome.priorFailures, previousSignIn };
  }

  /** The user of a live session id, or undefined (unknown, ended, inactive user, password changed since). */
  async resolve(id: string): Promise<AuthUser | undefined> {
    const idHash = hashSessionId(id);
    const record = await this.repo.findLive(idHash, this.limits.idleMinutes);
    if (!record) return undefined;
    if (!sameStamp(record.passwordStamp, passwordStamp(record.passwordHash))) {
      await this.repo.delete(idHash);
      return undefined;
    }
    if (!record.user.active) return undefined;
    if (Date.now() - record.lastSeenAt.getTime() > touchIntervalMs(this.limits.idleMinutes)) {
      this.repo.touch(idHash).catch((err: unknown) => this.log?.warn({ err }, 'could not record session use'));
    }
    return asAuthUser(record.user, 'session');
  }

  /** Ends a session; answers whether it existed. */
  async signOut(id: string): Promise<boolean> {
    return this.repo.delete(hashSessionId(id));
  }
}
