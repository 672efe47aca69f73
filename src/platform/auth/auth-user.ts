/** The longest login name the directory accepts; a longer one in a Basic header can never log in. */
export const MAX_USERNAME_LENGTH = 255;

/** Who a request runs as, set by the authentication middleware on `req.user`. */
export interface AuthUser {
  id: number;
  name: string;
  displayName: string;
  email: string;
  active: boolean;
  /** Names of the user's groups, sorted. */
  groups: readonly string[];
  isAdmin: boolean;
  isSystemAdmin: boolean;
  /** How this request proved who it is. */
  via: 'basic' | 'bearer' | 'session';
  /** A read-scoped token: the request may only be a GET or HEAD (enforced in authenticate.ts). */
  readOnly: boolean;
  /** The personal access token of a Bearer request (its rate limits are the token's, not the user's). */
  tokenId?: number;
}

declare module 'http' {
  interface IncomingMessage {
    /** The caller, once the pipeline's authentication step knows it (absent: anonymous). */
    user?: Express.User;
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends AuthUser {}
  }
}

/** THE administrator test: members of the administrators or the system administrators group. */
export const isAdministrator = (u: Pick<AuthUser, 'isAdmin' | 'isSystemAdmin'>): boolean => u.isAdmin || u.isSystemAdmin;

/** The user as the directory holds it, without the way of authentication. */
export type DirectoryUser = Omit<AuthUser, 'via' | 'readOnly' | 'tokenId'>;

/** What the authenticator needs from the directory (implemented by directory/auth-store.repository.ts). */
export interface LoginRecord {
  user: (DirectoryUser & { passwordHash: string }) | undefined;
  /** The name's failed logins from all addresses together, in the current series (see `LoginWindows`). */
  failures: number;
  /** The name's failed logins in a row from the asking address. */
  addressFailures: number;
  /** When the name was locked for the asking address (null: it is not, or never was). */
  lockedAt: Date | null;
}

/** The counts a failed attempt leaves: in a row from its address, and of the name from all addresses. */
export interface FailureCount {
  address: number;
  total: number;
}

/** The periods the store needs to read and count failures. */
export interface LoginWindows {
  /** MAX_AUTH_ATTEMPTS: failures in a row from one address that lock the name for that address. */
  maxAttempts: number;
  /** LOCKOUT_MINUTES: how long a lock holds (0: until it is reset). */
  lockoutMinutes: number;
  /** A name's failures from all addresses form one series while no gap between two is longer than this. */
  seriesMinutes: number;
}

export interface TokenRecord {
  tokenId: number;
  scope: 'read' | 'write';
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  user: DirectoryUser;
}

export interface AuthStore {
  /**
   * The user by login name (without regard to case), the name's failures from all addresses, and its
   * failed-login state for `address` (a client key: platform/http/client-key.ts; default `-`, unknown). Without
   * `windows` the name's total counts a series of 15 minutes.
   */
  findLogin(username: string, address?: string, windows?: Pick<LoginWindows, 'seriesMinutes'>): Promise<LoginRecord>;
  /**
   * Counts one attempt from `address` as failed before its password is checked (a success then takes it back),
   * in one atomic statement, for the address and for the name's total, and locks the name for that address when
   * its count reaches `maxAttempts`; answers the new counts. Counts nothing and answers undefined while the name
   * is locked for that address (a lock older than `lockoutMinutes`, when not 0, has run out): concurrent guesses,
   * on any node, are then counted and locked exactly as sequential ones.
   */
  recordFailure(username: string, address: string, windows: LoginWindows): Promise<FailureCount | undefined>;
  /**
   * A success from `address`: the name's failures in a row from it are forgotten. `takeBack`: this attempt was
   * counted before its check (`recordFailure`), and leaves the name's total again.
   */
  clearFailures(username: string, address: string, takeBack: boolean): Promise<void>;
  /** Names locked now for at least one address; a lock older than `lockoutMinutes` (when not 0) has run out. */
  countLocked(lockoutMinutes: number): Promise<number>;
  findToken(tokenHash: string): Promise<TokenRecord | undefined>;
  touchToken(tokenId: number): Promise<void>;
}

/** The request user of a cache entry: frozen, because every request it authenticates shares it. */
export function asAuthUser(user: DirectoryUser, via: AuthUser['via'], readOnly = false, tokenId?: number): AuthUser {
  return Object.freeze({ ...user, groups: Object.freeze([...user.groups]), via, readOnly, ...(tokenId === undefined ? {} : { tokenId }) });
}
