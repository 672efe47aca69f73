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
  failures: number;
  lockedAt: Date | null;
}

export interface TokenRecord {
  tokenId: number;
  scope: 'read' | 'write';
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  user: DirectoryUser;
}

export interface AuthStore {
  /** The user by login name (without regard to case) and the failed-login state of that name. */
  findLogin(username: string): Promise<LoginRecord>;
  /**
   * Counts one attempt as failed before its password is checked (a success then clears the counter), in one
   * atomic statement, and locks the name when the count reaches `max`; answers the new count. Counts nothing
   * and answers undefined while the name is locked (a lock older than `lockoutMinutes`, when not 0, has run
   * out): concurrent guesses, on any node, are then counted and locked exactly as sequential ones.
   */
  recordFailure(username: string, max: number, lockoutMinutes: number): Promise<number | undefined>;
  clearFailures(username: string): Promise<void>;
  /** Names locked now; a lock older than `lockoutMinutes` (when not 0) has run out. */
  countLocked(lockoutMinutes: number): Promise<number>;
  findToken(tokenHash: string): Promise<TokenRecord | undefined>;
  touchToken(tokenId: number): Promise<void>;
}
