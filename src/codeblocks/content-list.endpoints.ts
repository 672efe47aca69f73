// `GET /rest/advancedcodeblocks/1/content_list/json`: this server's own addition to the code-block API (the
// original add-on has no such list). The content of a space that holds code boxes, as far as the caller may
// view it, with its number of boxes; errors in the API's formats (codeblocks.openapi-schemas.ts).
import type { Endpoint } from '../platform/http/endpoint.ts';
import { currentUser } from '../platform/auth/guards.ts';
import type { JsonSchema } from '../platform/openapi/operation.ts';
import { CachedBody, sendCachedBody } from '../platform/http/cached-body.ts';
import type { BoxedContent, BoxedContentService } from './content-list.service.ts';
import { contentListQuery, parseContentListQuery } from './content-list.schemas.ts';
import { CONTENT_TYPES } from './error-render.ts';
import { PATHS, REST_BASE } from './generation.ts';
import { errors, MEDIA, TAG } from './codeblocks.openapi-schemas.ts';

export interface ContentListDeps {
  boxedContent: BoxedContentService;
}

const refProperties = {
  contentId: { type: 'integer' },
  contentTitle: { type: 'string' },
  contentType: { type: 'string', enum: ['page', 'blogpost', 'comment'] },
};
const ref = (description: string): JsonSchema => ({ type: 'object', description, properties: refProperties, required: ['contentId', 'contentTitle', 'contentType'] });
const contentList: JsonSchema = {
  type: 'object',
  title: 'BoxedContentList',
  properties: {
    results: {
      type: 'array',
      items: {
        ...ref('A content that holds code boxes'),
        properties: { ...refProperties, codeBoxes: { type: 'integer', description: 'Code boxes in its current version' }, container: ref("A comment's page or blog post") },
        required: ['contentId', 'contentTitle', 'contentType', 'codeBoxes'],
      },
    },
    start: { type: 'integer' },
    limit: { type: 'integer' },
    size: { type: 'integer' },
    isLastPage: { type: 'boolean' },
  },
  required: ['results', 'start', 'limit', 'size', 'isLastPage'],
};

const record = (c: BoxedContent) => ({
  contentId: c.id,
  contentTitle: c.title,
  contentType: c.type,
  codeBoxes: c.boxes,
  ...(c.container ? { container: { contentId: c.container.id, contentTitle: c.container.title, contentType: c.container.type } } : {}),
});

export const contentListEndpoints: Endpoint<ContentListDeps>[] = [
  {
    method: 'get',
    path: `${REST_BASE}${PATHS.contentList}`,
    tag: TAG,
    access: 'user',
    summary: "The content of a space that holds code boxes, as far as the caller may view it (this server's own, not in the original add-on)",
    description:
      'Parameters: `spaceKey`, `type` (`page` by default, `blogpost` or `comment`), `start` (0 by default), `limit` (1-100, 25 by default). ' +
      'By content id; content the caller may not view (the view rule of the wiki) is left out as if it did not exist, and so is a space it may not read.',
    query: contentListQuery,
    responses: { 200: { description: 'One page of the list', content: { [MEDIA.json]: contentList } }, ...errors('json') },
    handle: async (req, res, { boxedContent }) => {
      const page = await boxedContent.list(currentUser(req), parseContentListQuery(req.query));
      const body = { results: page.results.map(record), start: page.start, limit: page.limit, size: page.results.length, isLastPage: !page.hasMore };
      sendCachedBody(req, res, new CachedBody(JSON.stringify(body)), CONTENT_TYPES.json);
    },
  },
];
