// The error registry of the sign-in API (`/rest/auth/1/session`) and of the session credential. Codes any API
// raises (NOT_SIGNED_IN, the rate limits …) are in platform/http/platform.errors.ts.
import { AppError } from '../../platform/http/app-error.ts';
import { LOGIN_REASON_HEADER, XSRF_CHECK_FAILED_SUBCODE, loginReason, loginRefusedCode } from '../../platform/http/platform.errors.ts';

/**
 * A refused sign-in: the answers of Basic (same for an unknown user and a wrong password), but without a
 * `WWW-Authenticate` challenge, which would make a browser open its own login dialog over the form.
 */
export const signInRefused = (reason: 'failed' | 'denied') =>
  new AppError(
    401,
    loginRefusedCode(reason),
    reason === 'denied'
      ? 'The account is locked for sign-ins from this address after too many failed logins from it. An administrator can unlock it.'
      : 'Login failed: the username or the password is not valid.',
    { headers: { [LOGIN_REASON_HEADER]: loginReason(reason) } },
  );

/**
 * 403 for a state-changing request signed in by the session cookie without `X-Atlassian-Token: no-check`; the
 * sub-code (for the field editor's shape) is the body-type rule's.
 */
export const sessionXsrfCheckFailed = () =>
  new AppError(403, 'XSRF_CHECK_FAILED', 'XSRF check failed: a request signed in by the session cookie must send X-Atlassian-Token: no-check.', {
    subCode: XSRF_CHECK_FAILED_SUBCODE,
  });
