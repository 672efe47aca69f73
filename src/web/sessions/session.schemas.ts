import { z } from 'zod';

/** `POST /rest/auth/1/session`: the tracker host's sign-in body. */
export const signInBody = z.object({
  username: z.string({ error: 'username is required' }).min(1, 'username is required').max(1024),
  password: z.string({ error: 'password is required' }).max(1024),
});
