/** Shapes of the directory's REST (docs/host-api.md, "Users, groups and tokens"), as the interface uses them. */
export interface UserRecord {
  name: string;
  displayName: string;
  emailAddress: string;
  active: boolean;
  groups?: { size: number; items: { name: string }[] };
}

/** A user of the administrators' list, with its failed-login state. */
export interface ListedUser extends UserRecord {
  failedLogins: number;
  locked: boolean;
  lockedUntil: string | null;
}

export interface ListedGroup {
  name: string;
  builtin: boolean;
  memberCount: number;
}

export interface HostPage<T> {
  startAt: number;
  maxResults: number;
  total: number;
  isLast: boolean;
  values: T[];
}

export interface TokenRecord {
  id: number;
  name: string;
  createdAt: string;
  expiringAt?: string;
  lastAccessedAt?: string;
  scope?: 'read' | 'write';
}

export const USERS = '/rest/api/2/users/search';
export const USER = '/rest/api/2/user';
export const GROUPS = '/rest/api/2/group/bulk';
export const PAT = '/rest/pat/latest/tokens';
export const ADMIN_TOKENS = '/rest/pat/latest/admin/tokens';

/** "2 tokens", "1 group". */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
