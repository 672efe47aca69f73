import { api } from './api.ts';

export interface Me {
  name: string;
  displayName: string;
  isAdmin: boolean;
  /** The user's group names (whether a grant reaches the user, on the administrator's home). */
  groups: string[];
}

interface Myself {
  name: string;
  displayName: string;
  groups: { items: { name: string }[] };
}

/** The signed-in user, or undefined when there is no live session. */
export async function loadMe(): Promise<Me | undefined> {
  // The page says whether it was served to a live session: a signed-out visitor asks nothing (no 401).
  if (document.body.dataset.signedIn !== 'true') return undefined;
  try {
    await api('GET', '/rest/auth/1/session', undefined, { quiet401: true });
  } catch {
    return undefined;
  }
  const me = await api<Myself>('GET', '/rest/api/2/myself');
  const groups = me.groups.items.map((g) => g.name);
  return { name: me.name, displayName: me.displayName, groups, isAdmin: groups.includes('administrators') || groups.includes('system-administrators') };
}

export async function signIn(username: string, password: string): Promise<void> {
  await api('POST', '/rest/auth/1/session', { username, password }, { quiet401: true });
  document.body.dataset.signedIn = 'true';
}

export async function signOut(): Promise<void> {
  delete document.body.dataset.signedIn;
  await api('DELETE', '/rest/auth/1/session', undefined, { quiet401: true });
}
