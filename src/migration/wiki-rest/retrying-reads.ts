// A long read of a live wiki (thousands of requests) should not fail a space for one dropped connection or one
// busy moment of the wiki: reads that failed for a passing cause are tried again, a little later, a few times.
// A refusal (401, 403, 404), an answer of the wrong shape or any other status fails at once, as before.
import { SourceHttpError, type SourceClient } from '../source-http.ts';

/** What the wiki readers need of the client: its validated JSON GET. */
export type JsonReads = Pick<SourceClient, 'getJson'>;

/** Whether a failure may pass by itself: no connection, no answer in time, or a gateway or overload status. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof SourceHttpError)) return false;
  if (err.kind === 'unreachable' || err.kind === 'timeout') return true;
  return err.kind === 'status' && (err.status === 502 || err.status === 503 || err.status === 504);
}

/** The client's reads, each tried again after the given pauses while it fails transiently. */
export function retryingReads(client: JsonReads, pausesMs: readonly number[] = [1_000, 4_000], onRetry: (why: string) => void = () => undefined): JsonReads {
  const getJson: JsonReads['getJson'] = async (path, query, schema) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.getJson(path, query, schema);
      } catch (err) {
        const pause = pausesMs[attempt];
        if (pause === undefined || !isTransient(err)) throw err;
        onRetry(`${(err as Error).message}; trying again in ${pause / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  };
  return { getJson };
}
