// The wiki's read of a group's members, in the original wiki's shape (GET /rest/api/group/{groupName}/member,
// `start`/`limit` paging, `results` of known users, `_links.next`): what the live wiki source (issue 31,
// src/migration/wiki-rest) reads to bring the groups that view restrictions name across with their members.
// The tracker's /rest/api/2/group/member answers the same rows in the tracker's shape; both are for administrators.
import { z } from 'zod';
import { parseWith } from '../platform/http/validate.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { json } from '../platform/openapi/operation.ts';
import type { DirectoryPages } from '../directory/directory-pages.service.ts';
import { groupName } from '../directory/directory.schemas.ts';
import { pagingNumber } from './wiki.schemas.ts';

export interface GroupMembersDeps {
  /** The directory's pages of members (404 for an unknown group). */
  groupMembers: Pick<DirectoryPages, 'members'>;
  baseUrl: string;
}

const params = z.object({ groupName });
const query = z.object({ start: pagingNumber('start', 0, 1_000_000_000), limit: pagingNumber('limit', 200, 1000) });

const member = z.object({ type: z.literal('known'), username: z.string(), userKey: z.string(), displayName: z.string() }).meta({ title: 'WikiGroupMember' });
const memberList = z
  .object({
    results: z.array(member),
    start: z.number().int(),
    limit: z.number().int(),
    size: z.number().int(),
    _links: z.object({ base: z.string(), context: z.string(), self: z.string(), next: z.string().optional() }),
  })
  .meta({ title: 'WikiGroupMemberList' });

export const groupMemberEndpoints: Endpoint<GroupMembersDeps>[] = [
  {
    method: 'get', path: '/rest/api/group/{groupName}/member', tag: 'Wiki: spaces', access: 'admin',
    summary: "One page of a group's members, by name (start, limit): administrators",
    params, query, responses: { 200: json(memberList, 'One page of members') }, errors: [400, 404],
    handle: async (req, res, { groupMembers, baseUrl }) => {
      const name = parseWith(params, req.params).groupName;
      const q = parseWith(query, req.query);
      const { page } = await groupMembers.members(name, q.start, q.limit);
      const link = (start: number) => `/rest/api/group/${encodeURIComponent(name)}/member?limit=${q.limit}&start=${start}`;
      res.json({
        results: page.values.map((u) => ({ type: 'known', username: u.name, userKey: u.name.toLowerCase(), displayName: u.display_name })),
        start: q.start,
        limit: q.limit,
        size: page.values.length,
        _links: {
          base: baseUrl,
          context: new URL(baseUrl).pathname.replace(/\/$/, ''),
          self: `${baseUrl}${link(q.start)}`,
          ...(page.isLast || page.values.length === 0 ? {} : { next: link(q.start + page.values.length) }),
        },
      });
    },
  },
];
