import { passwordRefused } from './host-api.errors.ts';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../config.ts';

/**
 * What a new password must be, wherever a person chooses one: an administrator creating a user or setting its
 * password, a user changing its own, the command line's `user add` and `user passwd`. Passwords set by the
 * system itself (ADMIN_PASSWORD at start-up, demo data, an import's users) are not checked here.
 *
 * The rule: at least `minLength` characters besides the user name. A password that is the name, or the name with
 * a few characters around it (`alice2024!`), adds little a guesser would not try first, so the name is taken out
 * (ignoring case) before the length is counted.
 */
export class PasswordPolicy {
  constructor(readonly minLength = DEFAULT_PASSWORD_MIN_LENGTH) {}

  /** The reason `password` is refused for the user `name`, or undefined when it is allowed. */
  problem(name: string, password: string): string | undefined {
    const length = (s: string) => [...s].length;
    const lowerName = name.toLowerCase();
    if (password.toLowerCase() === lowerName) return 'The password must not be the username.';
    if (length(password) < this.minLength) return `The password must be at least ${this.minLength} characters long.`;
    const rest = lowerName === '' ? password : password.toLowerCase().split(lowerName).join('');
    if (length(rest) < this.minLength) {
      return `The password must not be built on the username: it needs at least ${this.minLength} characters besides it.`;
    }
    return undefined;
  }

  /** 400 naming the property `password` (rendered by the host API as `{"errors":{"password":…}}`). */
  check(name: string, password: string): void {
    const message = this.problem(name, password);
    if (message) throw passwordRefused(message);
  }
}
