// The 401 and 403 answers of one operation, described with the reasons that hold for it (issue 43): what its
// declared access refuses, what the operation itself refuses (`denied`, or its group's), and what the request
// pipeline refuses on every state-changing request of an API mount (the XSRF rule, read-only tokens). An API's
// catalogue gives the body's shape and headers; the text is the operation's own, so a client generator or a
// reader of the explorer is not told "administrators only" where any user may call.
import type { Access, OperationDoc, OperationGroup } from './operation.ts';

/** Why a caller without the declared access gets 401. */
const UNAUTHENTICATED: Record<Exclude<Access, 'anyone'>, string> = {
  user: 'Not signed in: no credentials, or wrong, expired or locked ones (Basic, Bearer token or session cookie)',
  admin: 'Not signed in: no credentials, or wrong, expired or locked ones (Basic, Bearer token or session cookie)',
  sysadmin: 'Not signed in: no credentials, or wrong, expired or locked ones (Basic, Bearer token or session cookie)',
  session: 'Not signed in with the web session cookie (Basic and Bearer do not count here)',
  metrics: 'No metrics token, or a wrong one',
};

/** Why a signed-in caller below the declared access gets 403. */
const BELOW_ACCESS: Partial<Record<Access, string>> = {
  admin: 'not an administrator (a member of the administrators or system administrators group)',
  sysadmin: 'not a system administrator',
};

const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);
const TAKES_TOKEN: ReadonlySet<Access> = new Set(['user', 'admin', 'sysadmin']);

const XSRF_BODY = 'a form, multipart or text/plain body without `X-Atlassian-Token: no-check`';
const XSRF = `XSRF check failed: signed in by the session cookie only, or ${XSRF_BODY}`;
const XSRF_ANONYMOUS = `XSRF check failed: ${XSRF_BODY}`;
const XSRF_FORM = `${XSRF} (a form body from a script, Basic or Bearer without a cookie, is read instead)`;
const READ_ONLY = 'a read-only personal access token (GET and HEAD only)';

/** The 401's text, or undefined when the operation cannot answer one for its access. */
export function unauthenticatedReason(op: OperationDoc): string | undefined {
  return op.access === 'anyone' ? undefined : UNAUTHENTICATED[op.access];
}

/**
 * Every reason the operation answers 403 for; empty when it answers none. Throws for an operation that lists a
 * 403 of its own without saying why (neither it nor its group has `denied`) and whose access is no reason.
 */
export function forbiddenReasons(op: OperationDoc, group: OperationGroup): string[] {
  const reasons: string[] = [];
  const below = BELOW_ACCESS[op.access];
  if (below) reasons.push(below);
  if (op.errors?.includes(403)) {
    const own = op.denied ?? group.denied;
    if (own) reasons.push(own);
    else if (!below) throw new Error(`${op.method.toUpperCase()} ${op.path} lists a 403 without saying why (denied)`);
  }
  if (group.limited && STATE_CHANGING.has(op.method)) {
    reasons.push(op.formBody ? XSRF_FORM : op.access === 'anyone' ? XSRF_ANONYMOUS : XSRF);
    if (TAKES_TOKEN.has(op.access)) reasons.push(READ_ONLY);
  }
  return reasons;
}

/** The reasons as one description. */
export const forbiddenText = (reasons: readonly string[]): string => {
  const text = reasons.join('; or ');
  return `Refused: ${text}`;
};
