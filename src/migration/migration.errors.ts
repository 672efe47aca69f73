// The error registry of the migration API (/rest/addon-pair/1, rendered by renderHostJson as `{errorMessages,
// errors}` like the tracker host's). Validation, access, 413 and 415 come from the platform.
import { AppError } from '../platform/http/app-error.ts';

/** 400: the upload is not a space export that can be read (a truncated zip, XML that is not an export …). */
export const exportRefused = (reason: string) => new AppError(400, 'MIGRATION_EXPORT_REFUSED', reason.split('\n')[0]!);

/** 415: the body is neither a zip nor XML. */
export const notAnExportType = (type: string) =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported media type ${type.slice(0, 100) || 'none'}: send the export as application/zip or application/xml.`);
