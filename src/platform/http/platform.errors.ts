// The error registry of the platform: the codes any API can raise (authentication, rights guards, limits, the
// input boundary, request bodies, unmatched routes, database races, the unexpected). One factory per code; each
// API's renderer gives the error its own shape (docs/architecture.md, "Error registries"). The codes and
// messages are part of the documented answers: change them only with the docs and the tests that quote them.
import { AppError, type FieldProblem } from './app-error.ts';

/** What a 401 challenges the client with: either credential scheme. */
export const CHALLENGES = ['Basic realm="addon-pair"', 'Bearer realm="addon-pair"'];

/** The header Jira-compatible clients read a login's failure reason from. */
export const LOGIN_REASON_HEADER = 'X-Seraph-LoginReason';

const seconds = (n: number) => `${n} second${n === 1 ? '' : 's'}`;

// ---- Authentication ----

/** 401 for a request that carried no usable credentials at all. */
export const notAuthenticated = () =>
  new AppError(401, 'NOT_AUTHENTICATED', 'You are not authenticated. Authentication required to perform this operation.', {
    headers: { 'WWW-Authenticate': CHALLENGES },
  });

/**
 * What a locked-out person reads: when the lock ends by itself, and every way out (the REST call an
 * administrator makes, and the command line on the server, which works even when the only administrator is
 * the one locked).
 */
export function lockedMessage(lockoutMinutes: number): string {
  const period =
    lockoutMinutes > 0
      ? `It unlocks by itself ${lockoutMinutes} minute${lockoutMinutes === 1 ? '' : 's'} after it was locked (one more wrong password then locks it again). `
      : 'It stays locked until it is unlocked (LOCKOUT_MINUTES is 0). ';
  return (
    'The account is locked for logins from this address after too many failed logins from it (other addresses are not affected). ' +
    period +
    'To unlock it now: an administrator calls DELETE /rest/api/2/user/lockout?username=NAME, ' +
    'or on the server run `addon-pair user unlock NAME` (or `addon-pair user passwd NAME` to set a new password).'
  );
}

/** The code of a refused login: `denied` means the name is locked after failed logins. */
export const loginRefusedCode = (reason: 'failed' | 'denied') => (reason === 'denied' ? 'AUTHENTICATION_DENIED' : 'AUTHENTICATION_FAILED');

/** The `X-Seraph-LoginReason` of a refused login (the host's spelling, `AUTHENTICATED_FAILED`, kept). */
export const loginReason = (reason: 'failed' | 'denied') => (reason === 'denied' ? 'AUTHENTICATION_DENIED' : 'AUTHENTICATED_FAILED');

/** What a refused Basic password that has the form of a personal access token adds to its 401 (issue 42). */
export const TOKEN_HINT =
  'The password has the form of a personal access token, but it is not a valid token of this user (revoked, expired, ' +
  "mistyped or another user's). Send a token as the password of its own user, or as `Authorization: Bearer <token>`.";

/** The Bearer challenge of a 401 whose Basic password looked like a token: RFC 6750's way to say the token is not valid. */
const TOKEN_HINT_CHALLENGES = [CHALLENGES[0]!, `${CHALLENGES[1]!}, error="invalid_token", error_description="send a personal access token as Bearer or as the password of its own user"`];

/**
 * 401 for credentials that were sent but refused; `denied` means the name is locked (for this client address)
 * after failed logins. `hint: 'token'`: the Basic password had the form of a token (message and challenge say so).
 */
export const authenticationFailed = (reason: 'failed' | 'denied', lockoutMinutes = 0, hint?: 'token') =>
  new AppError(
    401,
    loginRefusedCode(reason),
    reason === 'denied' ? lockedMessage(lockoutMinutes) : hint === 'token' ? `The credentials are not valid. ${TOKEN_HINT}` : 'The credentials are not valid.',
    { headers: { [LOGIN_REASON_HEADER]: loginReason(reason), 'WWW-Authenticate': hint === 'token' ? TOKEN_HINT_CHALLENGES : CHALLENGES } },
  );

/** 401 for `access_token=` in the query string: tokens travel in the Authorization header only. */
export const tokenInQuery = () =>
  new AppError(401, 'TOKEN_IN_QUERY', 'Access tokens are accepted only in the Authorization header.', { headers: { 'WWW-Authenticate': CHALLENGES } });

/** 403 for a read-scoped token on a method other than GET or HEAD, in whichever API's shape. */
export const readOnlyToken = () =>
  new AppError(403, 'READ_ONLY_TOKEN', 'This personal access token is read-only: it may only be used for GET and HEAD requests.');

/** 401 for a request that must be signed in with a web session (the sign-out) and is not. */
export const notSignedIn = () => new AppError(401, 'NOT_SIGNED_IN', 'There is no session to end: you are not signed in with a session.');

// ---- Rights guards ----

export const administratorRequired = () => new AppError(403, 'FORBIDDEN', 'You must have administrator rights to perform this operation.');

export const systemAdministratorRequired = () =>
  new AppError(403, 'FORBIDDEN', 'You must have system administrator rights to perform this operation.');

// ---- Limits ----

export const LOGIN_BUSY = 'LOGIN_BUSY';

/** 503: the hashes already waiting would keep this login waiting too long (platform/auth/hash-pool.ts). */
export const loginBusy = (retryAfterSeconds: number) =>
  new AppError(503, LOGIN_BUSY, `Too many logins are being checked right now. Try again in ${seconds(retryAfterSeconds)}.`, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

export const TOO_MANY_FAILED_LOGINS = 'TOO_MANY_FAILED_LOGINS';

/** 429 of an address over its limit of failed logins (platform/auth/address-throttle.ts). */
export const tooManyFailedLogins = (retryAfterSeconds: number) =>
  new AppError(429, TOO_MANY_FAILED_LOGINS, `Too many failed logins from this address. Try again in ${seconds(retryAfterSeconds)}.`, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

export const RATE_LIMITED = 'RATE_LIMITED';

/** 429 of an exceeded rate limit (platform/limits/rate-limiter.ts): the family and the bucket that refused. */
export const rateLimited = (retryAfterSeconds: number, family: string, reason: 'credential' | 'address') =>
  new AppError(
    429,
    RATE_LIMITED,
    `Too many requests (${family}) from this ${reason === 'address' ? 'address' : 'credential'}. Try again in ${seconds(retryAfterSeconds)}.`,
    { headers: { 'Retry-After': String(retryAfterSeconds) }, extra: { family, reason } },
  );

// ---- The input boundary and request bodies ----

export const INVALID_INPUT = 'INVALID_INPUT';

/** 400 of the input boundary (platform/http/input-boundary.ts): a value that cannot be stored or decoded. */
export const invalidInput = (problems: FieldProblem[]) =>
  new AppError(400, INVALID_INPUT, problems.map((p) => `${p.name}: ${p.message}`).join('; '), { details: problems });

/** 400 for a path parameter the router could not decode (Express 5 throws URIError "Failed to decode param"). */
export const invalidPathEncoding = () =>
  new AppError(400, INVALID_INPUT, 'path: a path segment is not valid percent-encoding.', {
    details: [{ name: 'path', message: 'a path segment is not valid percent-encoding.' }],
  });

/** 400 listing each request parameter or property that failed its schema. */
export const validationErrors = (details: FieldProblem[]) => new AppError(400, 'VALIDATION', 'validation errors', { details });

/** The web interface's session rule uses the same sub-code (src/web/sessions/session.errors.ts). */
export const XSRF_CHECK_FAILED_SUBCODE = 403004;

/** 403 for a body an HTML form could send cross-site, without `X-Atlassian-Token: no-check` (body-type.ts). */
export const xsrfCheckFailed = () =>
  new AppError(403, 'XSRF_CHECK_FAILED', 'XSRF check failed: a form, multipart or text/plain body is refused without X-Atlassian-Token: no-check.', {
    subCode: XSRF_CHECK_FAILED_SUBCODE,
  });

export const unsupportedMediaType = (type: string) =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported media type ${type.slice(0, 100)}: request bodies must be application/json.`);

export const invalidBodyCharset = () => new AppError(400, 'INVALID_BODY_CHARSET', 'The request body is not valid UTF-8.');

export const invalidBodyEncoding = () =>
  new AppError(400, 'INVALID_BODY_ENCODING', 'The request body could not be decoded as its Content-Encoding says.');

export const invalidJson = () => new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON.');

export const payloadTooLarge = () => new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.');

export const unsupportedEncoding = () => new AppError(415, 'UNSUPPORTED_ENCODING', 'The request body encoding is not supported.');

export const requestAborted = () => new AppError(400, 'REQUEST_ABORTED', 'The request was aborted.');

/** Any other 4xx of the body parser (its status kept). */
export const unreadableBody = (status: number) => new AppError(status, 'BAD_REQUEST', 'The request body could not be read.');

/** Any other 4xx of the HTTP layer (http-errors with `expose`, e.g. from raw-body; its status kept). */
export const unreadableRequest = (status: number) => new AppError(status, 'BAD_REQUEST', 'The request could not be read.');

// ---- Routes ----

/** 404 of a router's last route: nothing matched `path`. */
export const routeNotFound = (message: string, path: string) => new AppError(404, 'NOT_FOUND', message, { extra: { path } });

// ---- Database races (platform/db/pg-errors.ts maps SQLSTATEs onto these) ----

export const uniqueViolation = (cause: unknown) => new AppError(409, 'UNIQUE_VIOLATION', 'A record with this value already exists.', { cause });

export const foreignKeyViolation = (cause: unknown) =>
  new AppError(409, 'FOREIGN_KEY_VIOLATION', 'The record refers to, or is referred to by, another record.', { cause });

export const invalidValue = (cause: unknown) => new AppError(400, 'INVALID_VALUE', 'A value is missing, too long or out of range.', { cause });

export const retryCollision = (cause: unknown) =>
  new AppError(503, 'RETRY', 'The request collided with another one; please retry.', { cause, headers: { 'Retry-After': '1' } });

export const statementTimeout = (cause: unknown) => new AppError(503, 'TIMEOUT', 'The request took too long.', { cause });

// ---- The unexpected ----

/** Anything else thrown: a 500 whose message never reaches a client; `cause` is logged. */
export const internalError = (cause: unknown) => new AppError(500, 'INTERNAL', 'Internal server error', { cause });
