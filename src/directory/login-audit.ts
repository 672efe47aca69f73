import type { Knex } from 'knex';
import type { LoginAudit } from '../platform/auth/authenticator.ts';
import type { DirectoryChange, DirectoryHooks } from './directory-hooks.ts';

/** The actor of an entry no signed-in user caused: a login attempt by whoever sent it. */
const ANONYMOUS = 'anonymous';

/**
 * Failed logins as administrators see them in the audit trail (the event log, through the directory's change
 * hooks): `user.login_locked` when a name was locked for one client address (the address and its failures in a
 * row), and `user.login_slowed` when a name's failures from all addresses began to make its checks wait. One
 * entry per lock or per series, never one per failure, so a flood of wrong passwords cannot flood the log. Each is
 * written in a transaction of its own: the refused login itself changes nothing else.
 */
export function createLoginAudit(knex: Knex, hooks: DirectoryHooks): LoginAudit {
  const record = (change: DirectoryChange) => knex.transaction((trx) => hooks.changed(trx, change));
  return {
    locked: (username, address, failures) =>
      record({ actor: ANONYMOUS, kind: 'user.login_locked', target: { type: 'user', name: username }, after: { address, failedLogins: failures } }),
    slowed: (username, failures, delaySeconds) =>
      record({ actor: ANONYMOUS, kind: 'user.login_slowed', target: { type: 'user', name: username }, after: { failedLogins: failures, delaySeconds } }),
  };
}
