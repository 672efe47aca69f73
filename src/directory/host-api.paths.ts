/** The tracker host's REST, where the directory's and the tracker's resources live side by side. */
export const HOST_API = '/rest/api/2';

/** Clients of the tracker host also call its API as `latest` (issue 26). */
export const HOST_API_ALIASES = ['/rest/api/latest'];
