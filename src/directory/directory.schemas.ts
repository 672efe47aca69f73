import { z } from 'zod';
import { NO_CONTROL } from '../platform/http/storable-text.ts';
import { MAX_USERNAME_LENGTH } from '../platform/auth/auth-user.ts';


/** Login names: no colon (Basic auth splits at the first one), no control characters, no outer spaces. */
export const userName = z
  .string({ error: 'The username is required.' })
  .min(1, 'The username is required.')
  .max(MAX_USERNAME_LENGTH, `The username must be at most ${MAX_USERNAME_LENGTH} characters.`)
  .regex(/^[^:\s](?:[^:]*[^:\s])?$/, 'The username must not contain a colon or start or end with a space.')
  .regex(NO_CONTROL, 'The username must not contain control characters.')
  // The lookup key is the lower-case name, which may be longer (one 'İ' becomes two characters).
  .refine((n) => n.toLowerCase().length <= MAX_USERNAME_LENGTH, `The username must be at most ${MAX_USERNAME_LENGTH} characters in lower case.`);

export const password = z
  .string({ error: 'The password is required.' })
  .min(1, 'The password is required.')
  .max(1024, 'The password must be at most 1024 characters.');

export const groupName = z
  .string({ error: 'The group name is required.' })
  .trim()
  .min(1, 'The group name is required.')
  .max(255, 'The group name must be at most 255 characters.')
  .regex(NO_CONTROL, 'The group name must not contain control characters.');

export const createUserBody = z.object({
  name: userName,
  password,
  displayName: z.string().trim().max(255).optional(),
  emailAddress: z.union([z.email('The e-mail address is not valid.').max(255), z.literal('')]).optional(),
});

export const passwordBody = z.object({ password });
/** The user's own change: the current password is checked like a login. */
export const ownPasswordBody = z.object({
  password,
  currentPassword: z.string({ error: 'The current password is required.' }).min(1, 'The current password is required.').max(1024),
});

/** An administrator's change of a user (the name cannot change; unknown members are refused). */
export const updateUserBody = z
  .strictObject({
    displayName: z.string({ error: 'The display name must be a text.' }).trim().min(1, 'The display name must not be empty.').max(255, 'The display name must be at most 255 characters.').optional(),
    emailAddress: z.union([z.email('The e-mail address is not valid.').max(255), z.literal('')], { error: 'The e-mail address is not valid.' }).optional(),
    active: z.boolean({ error: 'active must be true or false.' }).optional(),
  }, { error: (iss) => (iss.code === 'unrecognized_keys' ? `Only displayName, emailAddress and active can be changed.` : undefined) })
  .refine((b) => Object.keys(b).length > 0, 'Give at least one of displayName, emailAddress and active.');
export const groupBody = z.object({ name: groupName });
export const memberBody = z.object({ name: userName });

/** A single query parameter: Express 5 gives an array for a repeated key, which we refuse. */
export const queryString = (label: string) =>
  z.string({ error: `The parameter ${label} is required.` }).min(1, `The parameter ${label} is required.`);

export const usernameQuery = z.object({ username: queryString('username') });
export const groupnameQuery = z.object({ groupname: queryString('groupname') });
export const memberQuery = z.object({ groupname: queryString('groupname'), username: queryString('username') });

const nonNegativeInt = (label: string, def: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return def;
      if (!/^-?\d+$/.test(v) || Number(v) < 0) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a non-negative whole number.` });
        return z.NEVER;
      }
      return Math.min(Number(v), max);
    });

export const userSearchQuery = z.object({
  username: z.string().default(''),
  startAt: nonNegativeInt('startAt', 0, 1_000_000_000),
  maxResults: nonNegativeInt('maxResults', 50, 1000),
});

/** The administrators' pages: `query` matches part of a name (users: also display name and e-mail). */
export const adminPageQuery = z.object({
  query: z.string().default(''),
  startAt: nonNegativeInt('startAt', 0, 1_000_000_000),
  maxResults: nonNegativeInt('maxResults', 50, 1000),
});

export const groupMembersQuery = z.object({
  groupname: queryString('groupname'),
  startAt: nonNegativeInt('startAt', 0, 1_000_000_000),
  maxResults: nonNegativeInt('maxResults', 50, 1000),
});

export const groupPickerQuery = z.object({
  query: z.string().default(''),
  maxResults: nonNegativeInt('maxResults', 20, 1000),
});

export const createTokenBody = z.object({
  name: z.string({ error: 'The token name is required.' }).trim().min(1, 'The token name is required.').max(255),
  expirationDuration: z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)], { error: 'expirationDuration must be a number of days.' })
    .pipe(z.number().int('expirationDuration must be a whole number of days.').min(1, 'expirationDuration must be at least 1 day.').max(36_500))
    .optional(),
  /** `read`: the token authenticates GET and HEAD only. */
  scope: z.enum(['read', 'write'], { error: 'scope must be read or write.' }).default('write'),
});

export const tokenIdParams = z.object({
  id: z.string().regex(/^\d{1,9}$/, 'The token id must be a number.').transform(Number),
});
