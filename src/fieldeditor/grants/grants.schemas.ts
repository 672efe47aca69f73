import { z } from 'zod';
import { idValue } from '../../tracker/tracker.schemas.ts';

const principal = (what: string) =>
  z
    .string({ error: `Each ${what} name must be a string.` })
    .trim()
    .min(1, `A ${what} name must not be empty.`)
    .max(255, `A ${what} name must be at most 255 characters.`);

/** A3 body: the complete global lists; a list left out means an empty list (full replacement). */
export const permissionBody = z
  .strictObject({
    userlist: z.array(principal('user'), { error: 'userlist must be an array of user names.' }).max(10_000).nullish(),
    grouplist: z.array(principal('group'), { error: 'grouplist must be an array of group names.' }).max(10_000).nullish(),
  })
  .nullish()
  .transform((b) => ({ userlist: b?.userlist ?? [], grouplist: b?.grouplist ?? [] }));

/** A context id in a body: a number, a digit string, or the literal `default`. */
const contextIdValue = z.union([idValue, z.literal('default')], { error: "contextId must be a context id or 'default'." });

/** A4 body: one user or one group, granted or revoked, globally or for one context. */
export const patchBody = z
  .strictObject({
    user: principal('user').optional(),
    group: principal('group').optional(),
    action: z.enum(['GRANT', 'REVOKE'], { error: "action must be 'GRANT' or 'REVOKE'." }),
    type: z.enum(['GLOBAL', 'CONTEXT'], { error: "type must be 'GLOBAL' or 'CONTEXT'." }),
    contextId: contextIdValue.nullish(),
  })
  .superRefine((b, c) => {
    if ((b.user === undefined) === (b.group === undefined)) {
      c.addIssue({ code: 'custom', path: ['user'], message: 'Send exactly one of user or group.' });
    }
    if (b.type === 'CONTEXT' && (b.contextId === undefined || b.contextId === null)) {
      c.addIssue({ code: 'custom', path: ['contextId'], message: 'contextId is required for type CONTEXT.' });
    }
  });

/** A10 body: the complete context grants of the field; contexts left out lose their grants. */
export const contextPermissionsBody = z
  .array(
    z.strictObject({
      contextId: contextIdValue,
      userlist: z.array(principal('user')).max(10_000).nullish(),
      grouplist: z.array(principal('group')).max(10_000).nullish(),
      // Sent back by clients that round-trip A9's answer; ignored.
      userlistWithFullnames: z.unknown().optional(),
    }),
    { error: 'The body must be an array of context permission records.' },
  )
  .max(10_000);

export type PatchInput = z.output<typeof patchBody>;
export type ContextPermissionsInput = z.output<typeof contextPermissionsBody>;
