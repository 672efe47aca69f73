// The error registry of the wiki's JSON API (/wiki/rest/api, rendered by wiki-json.renderer.ts) and of its import
// part. Codes any API can raise are in platform/http/platform.errors.ts. The messages are part of the documented
// answers; a space the caller cannot read answers exactly as an unknown key (keys cannot be probed).
import { AppError, badRequest } from '../platform/http/app-error.ts';

// ---- Spaces and permissions ----

export const spaceNotFound = (key: string) => new AppError(404, 'SPACE_NOT_FOUND', `No space with key : ${key}`);

export const spaceExists = (key: string) => new AppError(400, 'SPACE_EXISTS', `A space already exists with key ${key}`);

export const mayNotAdministerSpace = (key: string) => new AppError(403, 'FORBIDDEN', `Not permitted to administer space ${key}`);

export const permissionNotFound = (id: number, key: string) => new AppError(404, 'PERMISSION_NOT_FOUND', `No permission with id ${id} in space ${key}`);

export const permissionUserNotFound = (identifier: string) =>
  badRequest(`No user with name ${identifier}`, [{ name: 'subject.identifier', message: 'No such user.', value: identifier }], 'USER_NOT_FOUND');

export const permissionGroupNotFound = (identifier: string) =>
  badRequest(`No group with name ${identifier}`, [{ name: 'subject.identifier', message: 'No such group.', value: identifier }], 'GROUP_NOT_FOUND');

// ---- Content ----

export const contentNotFound = (id: number) => new AppError(404, 'CONTENT_NOT_FOUND', `No content found with id: ${id}`);

export const mayNotCreateContent = (type: string, spaceKey: string) => new AppError(403, 'FORBIDDEN', `Not permitted to create ${type} content in space ${spaceKey}`);

export const mayNotChangeContent = (id: number) => new AppError(403, 'FORBIDDEN', `Not permitted to change content ${id}`);

export const commentNeedsContainer = () =>
  badRequest('A comment needs a container (its page or blog post).', [{ name: 'container', message: 'required for comments' }]);

export const containerNotFound = (id: number, spaceKey: string) =>
  new AppError(400, 'CONTAINER_NOT_FOUND', `No page or blog post with id ${id} in space ${spaceKey}`);

export const titleRequired = () => badRequest('The title is required.', [{ name: 'title', message: 'The title is required.' }]);

export const noContainerAllowed = (type: string) => badRequest(`A ${type} has no container.`, [{ name: 'container', message: 'only comments have a container' }]);

export const onlyPagesHaveAncestors = () => badRequest('Only pages have ancestors.', [{ name: 'ancestors', message: 'only pages have ancestors' }]);

export const parentNotFound = (id: number, spaceKey: string) => new AppError(400, 'PARENT_NOT_FOUND', `No page with id ${id} in space ${spaceKey}`);

export const typeCannotChange = (id: number, from: string, to: string) =>
  badRequest(`The type of content ${id} is ${from}; it cannot become ${to}.`, [{ name: 'type', message: 'cannot change' }]);

/** 409: the update's version is not the next one (`current` is the version the client must exceed). */
export const staleVersion = (current: number) => new AppError(409, 'STALE_VERSION', `Version must be incremented on update. Current version is: ${current}`);

export const versionNotFound = (version: number, id: number) => new AppError(404, 'VERSION_NOT_FOUND', `No version ${version} of content ${id}`);

export const macroNotFound = (macroId: string, version: number, id: number) =>
  new AppError(404, 'MACRO_NOT_FOUND', `No macro with id ${macroId} in version ${version} of content ${id}`);

/** 400 for a storage body that does not parse (with the parser's position) or that an indexer cannot keep. */
export const invalidStorage = (problem: string, position?: { line?: number | undefined; column?: number | undefined }) =>
  new AppError(400, 'INVALID_STORAGE', `Error parsing xhtml: ${problem}`, position ? { extra: { line: position.line, column: position.column } } : {});

// ---- Restrictions ----

export const commentRestriction = () =>
  new AppError(400, 'COMMENT_RESTRICTION', 'Comments cannot be restricted; they follow their page or blog post.');

export const unknownRestrictionSubjects = (users: readonly string[], groups: readonly string[]) =>
  badRequest(
    'Unknown users or groups in the restriction.',
    [
      ...users.map((n) => ({ name: 'user', message: `No user with name ${n}`, value: n })),
      ...groups.map((n) => ({ name: 'group', message: `No group with name ${n}`, value: n })),
    ],
    'SUBJECT_NOT_FOUND',
  );

// ---- Import part (rendered by the import's own report) ----

export const importUnknownUser = (where: string, name: string) => new AppError(400, 'USER_NOT_FOUND', `${where}: unknown user ${name}`);

export const importUnknownGroup = (where: string, name: string) => new AppError(400, 'GROUP_NOT_FOUND', `${where}: unknown group ${name}`);

export const importSpaceKeyClash = (key: string) => new AppError(400, 'SPACE_EXISTS', `Space ${key}: a space with this key in another case exists`);

export const importUnknownSpace = (where: string, key: string) => new AppError(400, 'SPACE_NOT_FOUND', `${where}: unknown space ${key}`);

export const importBadReference = (where: string, role: 'container' | 'parent', ref: unknown, okTypes: readonly string[], spaceKey: string) =>
  new AppError(400, 'REFERENCE_NOT_FOUND', `${where}: ${role} ${String(ref)} is not a ${okTypes.join(' or ')} of space ${spaceKey}`);

/** An item the wiki's own rules refused during an import: its code kept, its message prefixed with the item. */
export const importItemRefused = (where: string, err: AppError) => new AppError(400, err.code, `${where}: ${err.message}`);
