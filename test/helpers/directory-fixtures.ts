// Directory fixtures: users, groups and personal access tokens, made through the directory and token
// services (the same code the REST endpoints call, so the change feed clears the login caches as in production).
// `TestApp.createUser` and `TestApp.tokenFor` (helpers/test-app.ts) are these functions bound to the app.
import type { AppServices } from '../../src/services.ts';
import type { AuthUser } from '../../src/platform/auth/auth-user.ts';
import { AppError } from '../../src/platform/http/app-error.ts';
import { BUILTIN_GROUPS } from '../../src/directory/groups.repository.ts';

export const basic = (name: string, password: string) => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
export const bearer = (token: string) => `Bearer ${token}`;

export interface TestUser {
  name: string;
  password: string;
  /** Value for the Authorization header (Basic). */
  auth: string;
}

export interface UserOptions {
  /** Groups to join; created when missing. */
  groups?: string[];
  /** Joins `administrators`. */
  admin?: boolean;
  /** Joins `system-administrators`. */
  sysadmin?: boolean;
  /** Default: `<name>-pw`. */
  password?: string;
}

/** Creates the group unless a group of that name (in any case) exists. */
export async function ensureGroup(services: AppServices, name: string): Promise<void> {
  try {
    await services.directory.createGroup(name);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'GROUP_EXISTS')) throw err;
  }
}

/** A user in `users` plus the given groups (created when missing); its password is `<name>-pw` unless given. */
export async function createUser(services: AppServices, name: string, opts: UserOptions = {}): Promise<TestUser> {
  const password = opts.password ?? `${name}-pw`;
  const groups = [...(opts.groups ?? [])];
  if (opts.admin) groups.push(BUILTIN_GROUPS.administrators);
  if (opts.sysadmin) groups.push(BUILTIN_GROUPS.systemAdministrators);
  for (const g of groups) await ensureGroup(services, g);
  await services.directory.createUser({ name, password, groups });
  return { name, password, auth: basic(name, password) };
}

/** A new personal access token of the user, as an Authorization value. */
export async function tokenFor(services: AppServices, name: string): Promise<string> {
  const user = await services.directory.getUser(name);
  const { rawToken } = await services.tokens.create(user.id, 'test');
  return bearer(rawToken);
}

/** The user as a request authenticated with Basic sees itself (`req.user`), for tests that call a service directly. */
export async function authUserOf(services: AppServices, name: string): Promise<AuthUser> {
  const user = await services.directory.getUser(name);
  const isSystemAdmin = user.groups.includes(BUILTIN_GROUPS.systemAdministrators);
  return {
    id: user.id,
    name: user.name,
    displayName: user.display_name,
    email: user.email,
    active: user.active,
    groups: [...user.groups].sort(),
    isAdmin: isSystemAdmin || user.groups.includes(BUILTIN_GROUPS.administrators),
    isSystemAdmin,
    via: 'basic',
    readOnly: false,
  };
}
