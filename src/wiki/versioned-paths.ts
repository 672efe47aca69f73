import type { RequestHandler } from 'express';

/**
 * Which host answers an unknown path under `/rest/api/`: the tracker's paths there always start with a version
 * (`/rest/api/2`, its alias `/rest/api/latest`, and `/rest/api/3` … on hosts that have them), the wiki's never
 * do (`/rest/api/space`, `/rest/api/content`). So a path whose first segment is a version, and that the
 * tracker's mount did not answer, leaves the wiki's mount before authentication and is answered by the app's
 * last handler, a 404 in the tracker host's error format; every other path stays the wiki's (its own 404).
 */
const VERSION_SEGMENT = /^\/(?:\d+|latest)(?:\/|$)/i;

export const leaveVersionedPaths: RequestHandler = (req, _res, next) => next(VERSION_SEGMENT.test(req.path) ? 'router' : undefined);
