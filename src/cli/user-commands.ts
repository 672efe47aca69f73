import type { DirectoryService } from '../directory/directory.service.ts';
import type { TokensService } from '../directory/tokens.service.ts';
import { BUILTIN_GROUPS } from '../directory/groups.repository.ts';
import { createTokenBody, createUserBody, password as passwordSchema } from '../directory/directory.schemas.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { UserCommand } from './user-command.ts';
import type { AppServices } from '../services.ts';

/** What the user and token commands need: the directory of whichever process runs them. */
export interface UserCommandServices {
  directory: DirectoryService;
  tokens: TokensService;
}

/** A whole application's services (a server, `user delete`) as the commands need them. */
export const userCommandServices = (s: AppServices): UserCommandServices => ({
  directory: s.directory,
  tokens: s.tokens,
});

/**
 * The commands that change users and tokens, written once. The command line runs them on the database it
 * opens itself (directory.commands.ts, admin.commands.ts), or a running embedded server runs them for it
 * (command-socket.server.ts), on its own services: either way the same checks, and the same text comes back
 * for standard output.
 */
export async function runUserCommand(services: UserCommandServices, cmd: UserCommand): Promise<string> {
  const { directory, tokens } = services;
  switch (cmd.command) {
    case 'user add': {
      const input = parseWith(createUserBody, {
        name: cmd.name,
        password: cmd.password,
        displayName: cmd.displayName,
        emailAddress: cmd.email,
      });
      directory.passwordPolicy.check(input.name, input.password);
      const groups = [
        ...(cmd.admin || cmd.sysadmin ? [BUILTIN_GROUPS.administrators] : []),
        ...(cmd.sysadmin ? [BUILTIN_GROUPS.systemAdministrators] : []),
      ];
      const user = await directory.createUser({ ...input, groups });
      return `created user ${user.name} (groups: ${user.groups.join(', ')})\n`;
    }
    case 'user passwd': {
      const password = parseWith(passwordSchema, cmd.password, 'password');
      directory.passwordPolicy.check(cmd.name, password);
      await directory.setPassword(cmd.name, password);
      await directory.resetLockout(cmd.name);
      return `password of ${cmd.name} changed\n`;
    }
    case 'user unlock':
      await directory.getUser(cmd.name);
      await directory.resetLockout(cmd.name);
      return `${cmd.name} is unlocked\n`;
    case 'user delete':
      await directory.deleteUser(cmd.name);
      return `deleted user ${cmd.name}\n`;
    case 'token create': {
      const token = parseWith(createTokenBody, { name: cmd.name, expirationDuration: cmd.days, scope: cmd.readOnly ? 'read' : 'write' });
      const user = await directory.getUser(cmd.username);
      const { rawToken } = await tokens.create(user.id, token.name, token.expirationDuration, token.scope);
      // The raw token alone on stdout, so `TOKEN=$(addon-pair token create …)` works.
      return `${rawToken}\n`;
    }
  }
}
