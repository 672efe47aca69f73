import type { ErrorRenderer } from './error-handler.ts';
import { LOGIN_BUSY } from './platform.errors.ts';

/** Jira-style host body: `{errorMessages: [...], errors: {name: message}}`. */
export const renderHostJson: ErrorRenderer = (err, _req, res) => {
  const errors: Record<string, string> = {};
  for (const d of err.details) errors[d.name] = d.message;
  // A busy login is expected and its message says when to come back; any other 5xx's message stays hidden.
  const message = err.status >= 500 && err.code !== LOGIN_BUSY ? 'Internal server error' : err.message;
  // Field problems go to `errors` only, as the tracker host does; everything else is one message.
  res.json({ errorMessages: err.details.length > 0 ? [] : [message], errors });
};
