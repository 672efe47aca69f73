import type { AuthUser } from '../platform/auth/auth-user.ts';
import type { Authenticator } from '../platform/auth/authenticator.ts';
import type { DirectoryService } from './directory.service.ts';
import { currentPasswordLocked, currentPasswordWrong } from './host-api.errors.ts';

/**
 * The key a password change's wrong guesses are counted under when the caller authenticated with a personal access
 * token (Bearer, or a token as the Basic password): one per user, whichever token and address it came from, so a
 * stolen token gets MAX_AUTH_ATTEMPTS guesses per lock period (new tokens made with it included) and never
 * touches the locks of the owner's own addresses (issue 44).
 */
export const tokenGuessKey = (user: AuthUser) => `token:${user.id}`;

/**
 * A user changes its own password (`PUT /rest/api/2/myself/password`). The current password is checked by the
 * authenticator exactly as a login is: a wrong one counts as a failed login of the name, and a name locked for the
 * caller is refused, so a stolen session or token cannot be used to guess the password. Through a session or a
 * password the failures count for the client address (as a login from there would); through a token they count
 * for the user's tokens (`tokenGuessKey`), so a thief holding a token cannot lock the owner out.
 */
export class OwnPasswordService {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly directory: DirectoryService,
  ) {}

  async change(user: AuthUser, currentPassword: string, password: string, client?: string): Promise<void> {
    // The policy is public: refusing a weak new password before the current one is checked reveals nothing.
    this.directory.passwordPolicy.check(user.name, password);
    const outcome = await this.authenticator.password(user.name, currentPassword, user.tokenId === undefined ? client : tokenGuessKey(user));
    if (!outcome.ok) throw outcome.reason === 'denied' ? currentPasswordLocked() : currentPasswordWrong();
    if (outcome.user.id !== user.id) throw currentPasswordWrong();
    await this.directory.setPassword(user.name, password, user, true);
  }
}
