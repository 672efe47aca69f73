/** A refused API call: its status, the API's own message, and the parsed body and login reason for error-words.ts. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The error body as the API sent it (one of the three shapes), for the plain-words map. */
    readonly body?: unknown,
    /** `X-Seraph-LoginReason` of a refused login (`AUTHENTICATION_DENIED`: the name is locked). */
    readonly loginReason?: string,
  ) {
    super(message);
  }
}
