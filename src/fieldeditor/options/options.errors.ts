import { AppError } from '../../platform/http/app-error.ts';
import { SUB, validationError } from '../shared/fieldeditor.errors.ts';

/** Errors of the option, default-value and sort endpoints (rendered by the field editor's renderer). */

export const DUPLICATE_MESSAGE = 'This option value does already exist. Option values need to be unique.';

/**
 * The documented duplicate answer: one entry on `optionvalue` with the documented message, and (since the
 * original's 2.8.0) an additional message naming the id of the option that already has the value.
 */
export const duplicateValue = (value: string, existingId: number) =>
  validationError([
    {
      name: 'optionvalue',
      message: DUPLICATE_MESSAGE,
      exceptionName: 'DuplicateOptionValueException',
      value: { optionvalue: value, existingOptionId: existingId },
    },
    {
      name: 'existingOptionId',
      message: `The option with the id ${existingId} already has this value.`,
      value: { id: existingId },
    },
  ]);

export const optionNotFound = (id: number) =>
  new AppError(404, 'OPTION_NOT_FOUND', `The option ${id} does not exist in this context.`, { subCode: SUB.NOT_FOUND });

export const notInList = (name: string, id: number, parentId: number | null) =>
  validationError([
    {
      name,
      message:
        parentId === null
          ? `The option ${id} is a child option; use the childoptions endpoints of its parent.`
          : `The option ${id} is not a child option of the option ${parentId}.`,
      value: { id },
    },
  ]);

export const afterNotSibling = (afterId: number, id: number) =>
  validationError([
    { name: 'after', message: `The option ${afterId} is not a sibling of the option ${id}; an option moves only within its own list.`, value: { id: afterId } },
  ]);

export const unsupportedFieldType = (name: string, message: string) => validationError([{ name, message }]);

/** A batch over its item limit (docs/configuration.md, "Limits"): refused before any item is read. */
export const tooManyItems = (count: number, max: number) =>
  new AppError(413, 'TOO_MANY_ITEMS', `A batch takes at most ${max} items in all; this one has ${count}.`, { subCode: SUB.TOO_LARGE });

/** A sync applied with an If-Match that no longer names the option tree (it changed since the preview). */
export const preconditionFailed = () =>
  new AppError(412, 'LIST_CHANGED', 'The option list changed since the preview: its ETag no longer matches If-Match. Preview again and apply that.', { subCode: 412001 });

/** A sync applied without If-Match: the preview's ETag is required, so that exactly the previewed diff is applied. */
export const preconditionRequired = () =>
  new AppError(428, 'PRECONDITION_REQUIRED', 'Applying a sync needs If-Match with the ETag of the preview (or of the export it was made from).', { subCode: 428000 });

/** A second option sync of one user while the first is running (issue 44: one at a time per user and node). */
export const syncRunning = () =>
  new AppError(409, 'SYNC_RUNNING', 'One of your option syncs is still running: send the next once it has answered.', { subCode: 409001 });
