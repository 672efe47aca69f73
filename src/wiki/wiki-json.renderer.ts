import { STATUS_CODES } from 'node:http';
import type { ErrorRenderer } from '../platform/http/error-handler.ts';

/**
 * Confluence's `/rest/api` error body: `{statusCode, data: {authorized, valid, errors, successful}, message,
 * reason}`. `authorized` is false for 401/403, `valid` false for 400; field problems become `errors` entries
 * in Confluence's `{message: {key, translation, args}}` form and are also summed up in `message`.
 */
export const renderWikiJson: ErrorRenderer = (err, _req, res) => {
  const internal = err.status >= 500 && err.code === 'INTERNAL';
  const errors = err.details.map((d) => ({ message: { key: d.name, translation: d.message, args: [] as unknown[] } }));
  let message = internal ? 'Internal server error' : err.message;
  if (!internal && err.details.length > 0) message = err.details.map((d) => `${d.name}: ${d.message}`).join('; ');
  res.json({
    statusCode: err.status,
    data: {
      authorized: err.status !== 401 && err.status !== 403,
      valid: err.status !== 400,
      errors,
      successful: false,
    },
    message,
    reason: STATUS_CODES[err.status] ?? 'Error',
  });
};
