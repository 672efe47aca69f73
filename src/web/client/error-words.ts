/**
 * Plain words for every failure the interface shows. The APIs answer in the wording of the products they copy
 * ("FieldPermission Denied - …", "This option value does already exist…", "must be a text of 1 to 255
 * characters"), which the REST wire keeps; a person reads a short sentence instead: what happened and what to
 * do. Rules are tried in order on the status, the field editor's sub-code, the login reason and the body's
 * field problems; an answer no rule knows keeps the API's own message (messageOf), never an id or a code.
 */
import { ApiError } from './api-error.ts';

type Obj = Record<string, unknown>;
interface Problem {
  name: string;
  message: string;
  exceptionName?: string;
  value?: unknown;
}

/** The label a person sees for a request member. */
const LABELS: Record<string, string> = {
  optionvalue: 'The option name',
  name: 'The name',
  username: 'The user name',
  displayName: 'The display name',
  emailAddress: 'The e-mail address',
  password: 'The password',
  currentPassword: 'The current password',
  contextName: 'The context name',
  projectIds: 'The projects',
  issueTypeIds: 'The issue types',
  expirationDuration: 'The expiry',
  olderThanDays: 'The number of days',
  kind: 'The kind',
  from: 'The start time',
  to: 'The end time',
  actor: 'The user',
  fieldId: 'The field',
  startAt: 'The page start',
  maxResults: 'The page size',
};

/** The field problems of a body, whichever API sent it (the field editor's array, the host's object). */
function problemsOf(body: unknown): Problem[] {
  if (!body || typeof body !== 'object') return [];
  const errors = (body as Obj).errors;
  if (Array.isArray(errors)) return errors.filter((e): e is Problem => !!e && typeof (e as Obj).message === 'string');
  if (errors && typeof errors === 'object') return Object.entries(errors as Obj).map(([name, message]) => ({ name, message: String(message) }));
  return [];
}

const subCodeOf = (body: unknown) => (body && typeof body === 'object' ? (body as Obj).subCode : undefined);

/** How long a lock lasts on this server (the page says it: data-lockout-minutes). */
function lockSentence(): string {
  const minutes = Number(document.body.dataset.lockoutMinutes ?? '');
  const when =
    minutes > 0
      ? `It unlocks by itself ${minutes} minute${minutes === 1 ? '' : 's'} after it was locked, or sooner when an administrator unlocks it on the Users screen.`
      : 'It stays locked until an administrator unlocks it on the Users screen.';
  return `This account is locked after too many failed logins. ${when}`;
}

/** One field problem in plain words. */
function problemSentence(p: Problem): string {
  if (p.exceptionName === 'DuplicateOptionValueException' || /does already exist/.test(p.message)) {
    const value = (p.value as Obj | undefined)?.optionvalue;
    return typeof value === 'string'
      ? `An option named ${value} already exists in this list. Choose another name.`
      : 'An option with this name already exists in this list. Choose another name.';
  }
  if (p.name === 'existingOptionId') return '';
  if (/must be a text of 1 to 255 characters/.test(p.message)) return `${LABELS[p.name] ?? 'The text'} must be 1 to 255 characters long (spaces at either end do not count).`;
  if (/default context of a field cannot be deleted/.test(p.message)) return 'The default context of a field cannot be deleted; delete one of its other contexts, or change this one.';
  if (/already exists/.test(p.message) && p.name === 'username') return 'A user with this name already exists (names are compared without regard to case). Choose another name.';
  if (/already exists/.test(p.message) && p.name === 'name') return 'A group with this name already exists. Choose another name.';
  const label = LABELS[p.name];
  // "olderThanDays must …": the member's name is the subject; say it in words.
  const own = p.message.startsWith(`${p.name} `) ? p.message.slice(p.name.length + 1) : p.message;
  // "must …", "is …": the sentence's subject is the field; a full sentence of its own is kept as it is.
  if (/^(must|is|may|should|cannot) /.test(own)) return `${label ?? 'The value'} ${own.replace(/\.?$/, '.')}`;
  return /^[A-Z]/.test(p.message) ? p.message.replace(/\.?$/, '.') : `${label ?? 'A value'} is not valid: ${p.message.replace(/\.?$/, '.')}`;
}

/** The sentence for any failure (an ApiError, a thrown Error, anything). */
export function plainWords(e: unknown): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  const { status, body, message } = e;
  const sub = subCodeOf(body);
  if (status === 0) return 'The server cannot be reached. Check the connection and try again.';
  if (status === 401) {
    if (e.loginReason === 'AUTHENTICATION_DENIED') return lockSentence();
    if (e.loginReason === 'AUTHENTICATED_FAILED') return 'The user name or the password is not correct.';
    return 'You are signed out (the session ended). Sign in again.';
  }
  if (status === 403) {
    if (sub === 403001 || /^FieldPermission Denied/.test(message)) return 'You have no right to edit this field’s options. An administrator can grant it on the field’s page under Administration.';
    if (sub === 403002) return 'This field does not exist, or you have no right to see it.';
    if (sub === 403003) return 'Only administrators may delete options here (a setting on the Administration page). You can still disable the option.';
    if (sub === 403004 || /^XSRF/.test(message)) return 'This page is out of date. Reload it and try again.';
    if (/current password is not correct/.test(message)) return 'The current password is not correct. Each wrong attempt counts as a failed login.';
    if (/locked after too many failed logins/.test(message)) return lockSentence();
    if (/system administrator rights/.test(message)) return 'Only system administrators may do this.';
    if (sub === 403000 || /administrator rights/.test(message)) return 'Only administrators may do this.';
    return 'You have no right to do this.';
  }
  if (status === 404) {
    if (/^No content found/.test(message)) return 'This page does not exist, or you have no right to view it.';
    if (sub === 404001) return 'This context no longer exists; it may have been deleted meanwhile. Reload the page.';
    if (/^The (user|group|token|option|project|field)/.test(message)) return `${message.replace(/ in this context\.$/, '.').replace(/\.?$/, '.')} It may have been deleted meanwhile; reload the page.`;
    return 'This no longer exists; it may have been deleted meanwhile. Reload the page.';
  }
  if (status === 412) return 'The list changed since you loaded it. Reload the page and try again.';
  if (status === 413) return 'This is too large to be sent in one go. Send it in smaller parts.';
  if (status === 429 || status === 503) return /Try again in/.test(message) ? message : 'The server is busy. Wait a moment and try again.';
  if (status >= 500) return 'The server could not do this because of an unexpected error. Try again; if it keeps failing, tell an administrator.';
  const sentences = problemsOf(body).map(problemSentence).filter(Boolean);
  if (sentences.length > 0) return [...new Set(sentences)].join(' ');
  return message;
}
