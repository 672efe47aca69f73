import type { AuthUser } from '../platform/auth/auth-user.ts';
import type { Authenticator } from '../platform/auth/authenticator.ts';
import type { DirectoryService } from './directory.service.ts';
import { currentPasswordLocked, currentPasswordWrong } from './host-api.errors.ts';

/**
 * A user changes its own password (`PUT /rest/api/2/myself/password`). The current password is checked by the
 * authenticator exactly as a login is: a wrong one counts as a failed login of the name and of the address, and a
 * locked name is refused, so a stolen session or token cannot be used to guess the password.
 */
export class OwnPasswordService {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly directory: DirectoryService,
  ) {}

  async change(user: AuthUser, currentPassword: string, password: string, client?: string): Promise<void> {
    // The policy is public: refusing a weak new password before the current one is checked reveals nothing.
    this.directory.passwordPolicy.check(user.name, password);
    const outcome = await this.authenticator.password(user.name, currentPassword, client);
    if (!outcome.ok) throw outcome.reason === 'denied' ? currentPasswordLocked() : currentPasswordWrong();
    if (outcome.user.id !== user.id) throw currentPasswordWrong();
    await this.directory.setPassword(user.name, password, user, true);
  }
}
