// The answers of a wiki's content REST that the live source reads (docs/host-api.md "Wiki"; the original wiki
// answers the same shapes with more members, which are ignored). Loose on purpose: a member the source does
// not need never fails an import; a member it needs in a wrong shape is a one-line 'bad-answer'.
import { z } from 'zod';
import { contentIdWith } from '../../wiki/wiki.schemas.ts';

/** A content id as the wiki writes it (a digit string; a number is accepted too), up to 2^53-1. */
export const restContentId = contentIdWith({ notDigits: 'a content id must be digits', outOfRange: 'a content id is out of range' });

const person = z.looseObject({ username: z.string().min(1).max(255).optional(), displayName: z.string().max(255).nullish() });

/** `next` is relative to `base`, as the wiki writes it; its absence ends the list. */
const links = z.looseObject({ next: z.string().optional() }).optional();

export const restSpace = z.looseObject({
  id: z.number().int().optional(),
  key: z.string().regex(/^[A-Za-z0-9]{1,255}$/, 'a space key must be letters or digits'),
  name: z.string().max(255),
  description: z.looseObject({ plain: z.looseObject({ value: z.string() }).optional() }).optional(),
  homepage: z.looseObject({ id: restContentId }).optional(),
});

export const restSpaceList = z.looseObject({ results: z.array(restSpace), _links: links });

export const restContent = z.looseObject({
  id: restContentId,
  type: z.enum(['page', 'blogpost', 'comment']),
  status: z.string().optional(),
  title: z.string(),
  version: z.looseObject({
    number: z.number().int().min(1),
    when: z.string().optional(),
    by: person.optional(),
  }),
  ancestors: z.array(z.looseObject({ id: restContentId })).optional(),
  container: z.looseObject({ id: z.union([z.string(), z.number()]).optional(), type: z.string().optional() }).optional(),
  body: z.looseObject({ storage: z.looseObject({ value: z.string() }) }).optional(),
  history: z
    .looseObject({ createdBy: person.optional(), createdDate: z.string().optional() })
    .optional(),
  extensions: z.looseObject({ position: z.unknown().optional() }).optional(),
});

export const restContentList = z.looseObject({ results: z.array(restContent), _links: links });

export const restReadRestriction = z.looseObject({
  restrictions: z.looseObject({
    user: z.looseObject({ results: z.array(person) }).optional(),
    group: z.looseObject({ results: z.array(z.looseObject({ name: z.string().min(1).max(255) })) }).optional(),
  }),
});

export const restMemberList = z.looseObject({ results: z.array(person), _links: links });

export type RestSpace = z.output<typeof restSpace>;
export type RestContent = z.output<typeof restContent>;
