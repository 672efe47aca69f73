// The code-block download API as a feature (platform/feature.ts): its service, E1-E3 (errors in the shapes of
// the CODEBLOCKS_COMPAT generation) with their fast path, the servlet redirects, and the code-box index it keeps
// in every saved page (its hook into the wiki).
import type { Feature, FeatureContext } from '../platform/feature.ts';
import type { WikiHookSet } from '../wiki/content-indexer.ts';
import { decideView } from '../wiki/content-access.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { CodeboxRepository } from './codebox.repository.ts';
import { blockTextCache, cachedCodeboxes, cachedDecideView } from './download-cache.ts';
import { CoalescingTemplateSource } from './remote/coalescing-source.ts';
import { CodeblocksService } from './download.service.ts';
import { createCodeblocksErrorRenderer } from './error-render.ts';
import { invalidParameter } from './download.errors.ts';
import { generationOf, REST_BASE, SERVLET_BASE } from './generation.ts';
import { codeblocksEndpoints } from './codeblocks.endpoints.ts';
import { OutboundAllowlist } from '../platform/http/outbound-allowlist.ts';
import { RemoteTemplateFetcher } from './remote/remote-template.ts';
import { servletEndpoints } from './servlet-redirect.endpoints.ts';
import { codeboxIndexer } from './codebox-indexer.ts';
import { DownloadFastPath } from './download-fast-path.ts';
import { BoxedContentService, type ContentSummaries } from './content-list.service.ts';
import { contentListEndpoints } from './content-list.endpoints.ts';

function createCodeblocksService({ config, db, log }: FeatureContext): CodeblocksService {
  const allowlist = new OutboundAllowlist(config.outboundAllowlist);
  if (allowlist.ignored.length > 0) {
    log.warn({ entries: allowlist.ignored }, 'OUTBOUND_ALLOWLIST entries that are not http(s) URLs allow nothing');
  }
  return new CodeblocksService({
    knex: db.knex,
    decideView: cachedDecideView(decideView, db.changes),
    codeboxes: cachedCodeboxes(new CodeboxRepository(db.knex), db.changes),
    blockTexts: blockTextCache(db.changes, 'codeblocks_block_texts'),
    maxBlockBytes: config.codeblockMaxBytes,
    remote: new CoalescingTemplateSource(new RemoteTemplateFetcher({ allowlist })),
  });
}

/** `wiki.content`: the wiki's listing, which the list of content holding code boxes narrows (content-list.service.ts). */
export function createCodeblocksFeature(ctx: FeatureContext, wiki: { content: ContentSummaries }): Feature<CodeblocksService, { wiki: WikiHookSet }> {
  const codeblocks = createCodeblocksService(ctx);
  const boxedContent = new BoxedContentService(ctx.db.knex, wiki.content);
  const { config, db } = ctx;
  const generation = generationOf(config.codeblocksCompat);
  const { baseUrl, contextPath } = config;
  return {
    name: 'codeblocks',
    services: codeblocks,
    hooks: { wiki: { contentIndexers: [codeboxIndexer] } },
    http: () => ({
      // Under its own prefix, so that no other request enters this router; before authentication.
      open: [{ path: SERVLET_BASE, router: buildRouter(servletEndpoints, { generation, baseUrl }, { mountedAt: SERVLET_BASE }) }],
      apis: [
        {
          path: REST_BASE,
          render: createCodeblocksErrorRenderer(generation),
          // The contract answers every bad URL parameter with its documented 500, never a 400.
          badInput: (err) => invalidParameter(err.message),
          // E1-E3 are GETs: no body is read, so a POST of any body stays the API's 404 (issue 26).
          nonJsonBodies: 'ignore',
          // Its own rate limit (RATE_LIMIT_DOWNLOADS): provisioning fleets download through one credential.
          family: 'downloads',
          routers: [
            buildRouter(
              codeblocksEndpoints,
              { codeblocks, generation, baseUrl, listBodies: blockTextCache(db.changes, 'codeblocks_list_bodies') },
              { mountedAt: REST_BASE },
            ),
            buildRouter(contentListEndpoints, { boxedContent }, { mountedAt: REST_BASE }),
          ],
        },
      ],
      fastPath: new DownloadFastPath({ contextPath, codeblocks }),
    }),
  };
}
