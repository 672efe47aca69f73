// The live wiki as a WikiSource (issue 31): its spaces read over the wiki's content REST (docs/host-api.md
// "Wiki", the interface our own wiki serves too) through the shared client for live sources, so every failure
// is one line that names the cause (unreachable, credentials refused, HTML where JSON was expected) and never
// the credentials. The source's user reads what it may view: a page hidden from it is not imported.
import { isNotFound, SourceClient, SourceHttpError, type SourceAuth } from '../source-http.ts';
import type { SourceSpaceBundle, WikiSource } from '../wiki/space-model.ts';
import { restSpace, restSpaceList, type RestSpace } from './wiki-rest.schemas.ts';
import { SpaceReader, wikiList } from './wiki-rest-reader.ts';
import { retryingReads, type JsonReads } from './retrying-reads.ts';

export interface WikiRestOptions {
  /** The wiki's base URL (with its context path, e.g. https://wiki.example.com/wiki). */
  url: string;
  auth: SourceAuth;
  progress: (m: string) => void;
  /** For tests: how long one request may take. */
  timeoutMs?: number;
  /** For tests: the pauses before reads that failed transiently are tried again. */
  retryPausesMs?: readonly number[];
  /** For tests: a stand-in for the global fetch. */
  fetchImpl?: typeof fetch;
  /** The largest answer read (SOURCE_MAX_ANSWER_MB); source-http.ts's default without it. */
  maxAnswerBytes?: number;
}

const SPACE_EXPAND = 'description.plain,homepage';

/** One space by key; undefined when the wiki holds none the user may read (the writer reports the key). */
async function spaceByKey(client: JsonReads, key: string): Promise<RestSpace | undefined> {
  try {
    return await client.getJson(`rest/api/space/${encodeURIComponent(key)}`, { expand: SPACE_EXPAND }, restSpace);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

class WikiRestSource implements WikiSource {
  readonly label: string;

  private readonly client: JsonReads;

  constructor(
    base: URL,
    client: JsonReads,
    private readonly progress: (m: string) => void,
  ) {
    this.label = `wiki ${base.origin}${base.pathname.replace(/\/$/, '')}`;
    this.client = client;
  }

  async *spaces(keys?: readonly string[]): AsyncIterable<SourceSpaceBundle> {
    for await (const space of this.wanted(keys)) {
      this.progress(`space ${space.key}: reading from ${this.label}`);
      let bundle: SourceSpaceBundle;
      try {
        bundle = await new SpaceReader(this.client, this.progress).read(space);
      } catch (err) {
        // This space fails alone (its reads were already tried again): the others are still read and imported.
        const reason = err instanceof SourceHttpError ? err.message : `reading it failed: ${(err as Error).message ?? String(err)}`.split('\n')[0]!;
        bundle = { space: { key: space.key, name: space.name, description: '' }, content: [], users: [], groups: [], notImported: {}, body: async () => '', failure: reason };
      }
      yield bundle;
    }
  }

  /** The spaces asked for (each read whole, with its description), or every space the user may read. */
  private async *wanted(keys?: readonly string[]): AsyncGenerator<RestSpace> {
    if (keys && keys.length > 0) {
      for (const key of keys) {
        const space = await spaceByKey(this.client, key);
        if (space) yield space;
        else this.progress(`space ${key}: not found on ${this.label}`);
      }
      return;
    }
    const listed: string[] = [];
    for await (const s of wikiList(this.client, 'rest/api/space', { expand: SPACE_EXPAND }, restSpaceList)) listed.push(s.key);
    for (const key of listed) {
      const space = await spaceByKey(this.client, key);
      if (space) yield space;
    }
  }

  async close(): Promise<void> {
    // Nothing is held open between requests.
  }
}

/**
 * Opens a live wiki: checks at once that it answers the content REST with these credentials (one short list
 * of spaces), so a wrong URL or password fails before anything is imported.
 */
export async function openWikiRest(opts: WikiRestOptions): Promise<WikiSource> {
  const client = new SourceClient({
    url: opts.url,
    auth: opts.auth,
    ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
    ...(opts.fetchImpl === undefined ? {} : { fetchImpl: opts.fetchImpl }),
    ...(opts.maxAnswerBytes === undefined ? {} : { maxAnswerBytes: opts.maxAnswerBytes }),
  });
  await client.getJson('rest/api/space', { limit: 1 }, restSpaceList);
  // From here on a read that fails for a passing cause is tried again (the first one fails at once).
  const reads = retryingReads(client, opts.retryPausesMs, (why) => opts.progress(`wiki: ${why}`));
  return new WikiRestSource(client.base, reads, opts.progress);
}
