// The error registry of the host JSON API (/rest/api/2: the directory's and the tracker's resources, rendered
// by renderHostJson as `{errorMessages, errors}`), and of their import parts. Codes any API can raise are in
// platform/http/platform.errors.ts. The messages are part of the documented answers.
import { AppError, type FieldProblem } from '../platform/http/app-error.ts';

/** A 400 naming one offending property (rendered into `errors`, with `errorMessages` empty). */
const invalidProperty = (name: string, message: string, value?: unknown) =>
  new AppError(400, 'VALIDATION', 'validation errors', { details: [{ name, message, ...(value === undefined ? {} : { value }) } satisfies FieldProblem] });

// ---- Directory: users, groups, memberships, tokens ----

export const userExists = () =>
  new AppError(400, 'USER_EXISTS', 'A user with that username already exists.', {
    details: [{ name: 'username', message: 'A user with that username already exists.' }],
  });

export const groupExists = () =>
  new AppError(400, 'GROUP_EXISTS', 'A group with that name already exists.', {
    details: [{ name: 'name', message: 'A group with that name already exists.' }],
  });

export const userNotFound = () => new AppError(404, 'USER_NOT_FOUND', 'The user does not exist.');

export const groupNotFound = () => new AppError(404, 'GROUP_NOT_FOUND', 'The group does not exist.');

/** 400: a new user names groups that do not exist. */
export const unknownGroups = (missing: readonly string[]) => new AppError(400, 'GROUP_NOT_FOUND', `Unknown group: ${missing.join(', ')}`);

export const builtinGroup = () => new AppError(400, 'GROUP_BUILTIN', 'A built-in group cannot be deleted.');

export const notAMember = () => new AppError(404, 'NOT_A_MEMBER', 'The user is not a member of the group.');

export const lastSystemAdministrator = () => new AppError(400, 'LAST_SYSTEM_ADMIN', 'The last system administrator cannot be removed.');

export const lastActiveSystemAdministrator = () =>
  new AppError(400, 'LAST_SYSTEM_ADMIN', 'The last active system administrator cannot be deactivated.');

/** 400: a new password the policy refuses (directory/password-policy.ts), naming the property `password`. */
export const passwordRefused = (message: string) => invalidProperty('password', message);

/** 403: an administrator (not a system administrator) touches a system administrator or their group. */
export const systemAdministratorOnly = () =>
  new AppError(403, 'FORBIDDEN', 'Only a system administrator can change the system-administrators group or a system administrator.');

/** 403 of `PUT /myself/password`: the current password given is wrong (counted as a failed login). */
export const currentPasswordWrong = () => new AppError(403, 'CURRENT_PASSWORD_WRONG', 'The current password is not correct.');

/** 403 of `PUT /myself/password`: the name is locked after too many failed logins. */
export const currentPasswordLocked = () =>
  new AppError(403, 'LOGIN_LOCKED', 'The name is locked after too many failed logins; an administrator can unlock it.');

/** Also the answer for another user's token (its existence is not revealed). */
export const tokenNotFound = () => new AppError(404, 'TOKEN_NOT_FOUND', 'The token does not exist.');

// ---- Tracker: projects, issue types, fields, contexts ----

export const projectKeyTaken = (key: string) => invalidProperty('projectKey', `A project with the key '${key}' already exists.`);

export const unknownLead = (name: string) => invalidProperty('lead', `The user '${name}' does not exist.`);

export const issueTypeNameTaken = (name: string) => invalidProperty('name', `An issue type with the name '${name}' already exists.`);

export const contextNotFound = () => new AppError(404, 'CONTEXT_NOT_FOUND', 'The context does not exist.');

export const unknownContextProject = (id: number) => invalidProperty('projectIds', `The project ${id} does not exist.`, id);

export const projectInOtherContext = (projectId: number, contextId: number) =>
  invalidProperty(
    'projectIds',
    `The project ${projectId} is already in context ${contextId} of this field; a project may be in only one context of a field.`,
    projectId,
  );

export const contextCoversAllProjects = (id: number, name: string) =>
  invalidProperty('projectIds', `The context ${id} (${name}) already applies to all projects of this field; name at least one project.`);

export const unknownContextIssueType = (id: number) => invalidProperty('issueTypeIds', `The issue type ${id} does not exist.`, String(id));

export const defaultContextUndeletable = (id: number) => invalidProperty('contextId', 'The default context of a field cannot be deleted.', id);

// ---- Import parts (rendered by the import's own report) ----

export const importUnknownGroups = (user: string, missing: readonly string[]) =>
  new AppError(400, 'GROUP_NOT_FOUND', `User ${user}: unknown group ${missing.join(', ')}`);

export const importUnknownProject = (context: string, key: string) =>
  new AppError(400, 'PROJECT_NOT_FOUND', `Context ${context}: unknown project ${key}`);

export const importUnknownIssueType = (context: string, name: string) =>
  new AppError(400, 'ISSUE_TYPE_NOT_FOUND', `Context ${context}: unknown issue type ${name}`);
