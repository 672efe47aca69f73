import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (`#/fields/10000/default`): the server serves one page at the root of the context path, so
 * every screen has a bookmarkable address without server-side routes.
 */
export function useRoute(): string[] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const update = () => setHash(location.hash);
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
}

export const href = (...parts: (string | number)[]): string => `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}`;

export function go(...parts: (string | number)[]): void {
  location.hash = href(...parts);
}
