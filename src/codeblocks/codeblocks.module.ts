// Wiring of the code-block download API: the service for AppServices and the mounts for createApp,
// kept here so that the shared services.ts and app.ts only gain one line each.
import type { IRouter } from 'express';
import type { Db } from '../platform/db/knex.ts';
import type { ChangeFeed } from '../platform/events/change-feed.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../platform/log/logger.ts';
import { mountApi } from '../platform/http/mount-api.ts';
import type { RequestPipeline } from '../platform/http/pipeline.ts';
import { decideView } from '../wiki/content-access.ts';
import { CodeboxRepository } from './codebox.repository.ts';
import { blockTextCache, cachedCodeboxes, cachedDecideView } from './download-cache.ts';
import { CoalescingTemplateSource } from './remote/coalescing-source.ts';
import { CodeblocksService } from './download.service.ts';
import { createCodeblocksErrorRenderer } from './error-render.ts';
import { invalidParameter } from './download-errors.ts';
import { generationOf, REST_BASE, SERVLET_BASE } from './generation.ts';
import { codeblocksEndpoints } from './codeblocks.endpoints.ts';
import { buildRouter } from '../platform/http/endpoint.ts';
import { OutboundAllowlist } from './remote/outbound-allowlist.ts';
import { RemoteTemplateFetcher } from './remote/remote-template.ts';
import { servletEndpoints } from './servlet-redirect.endpoints.ts';

export function createCodeblocksService(config: Config, db: Db, log: Logger): CodeblocksService {
  const allowlist = new OutboundAllowlist(config.outboundAllowlist);
  if (allowlist.ignored.length > 0) {
    log.warn({ entries: allowlist.ignored }, 'OUTBOUND_ALLOWLIST entries that are not http(s) URLs allow nothing');
  }
  return new CodeblocksService({
    knex: db.knex,
    decideView: cachedDecideView(decideView, db.changes),
    codeboxes: cachedCodeboxes(new CodeboxRepository(db.knex), db.changes),
    blockTexts: blockTextCache(db.changes, 'codeblocks_block_texts'),
    remote: new CoalescingTemplateSource(new RemoteTemplateFetcher({ allowlist })),
  });
}

/** Mounts E1-E3 (errors in the generation's shapes) and the servlet redirects (before authentication). */
export function mountCodeblocks(
  root: IRouter,
  pipeline: RequestPipeline,
  deps: { config: Config; codeblocks: CodeblocksService; changes: ChangeFeed },
): void {
  const generation = generationOf(deps.config.codeblocksCompat);
  const { baseUrl } = deps.config;
  // Under its own prefix, so that no other request enters this router.
  root.use(SERVLET_BASE, buildRouter(servletEndpoints, { generation, baseUrl }, { mountedAt: SERVLET_BASE }));
  mountApi(root, pipeline, {
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
        { codeblocks: deps.codeblocks, generation, baseUrl, listBodies: blockTextCache(deps.changes, 'codeblocks_list_bodies') },
        { mountedAt: REST_BASE },
      ),
    ],
  });
}
