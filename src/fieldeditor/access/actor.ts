import { isAdministrator, type AuthUser } from '../../platform/auth/auth-user.ts';

/** Who makes a change: the user's name (recorded with the change) and whether it is an administrator. */
export interface Actor {
  name: string;
  isAdmin: boolean;
}

export const actorOf = (user: AuthUser): Actor => ({ name: user.name, isAdmin: isAdministrator(user) });
