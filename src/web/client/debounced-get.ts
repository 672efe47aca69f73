import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from './api.ts';

/**
 * How the lists with a typed filter (U1, A1, the jobs of M1) read their page: `path` is asked for 150 ms after it
 * last changed, so typing sends one request rather than one a key, and again when `version` changes; an answer
 * that arrives after a newer request was set off is dropped. A failure puts the API's message in `error`, then
 * goes to `onError`; `setError` lets the screen show its own errors in the same place (the next answer clears them).
 */
export function useDebouncedGet<T>(path: string, version = 0, onError?: (e: unknown) => void) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api<T>('GET', path).then(
        (p) => live && (setData(p), setError(undefined)),
        (e) => live && (setError(errorText(e)), onError?.(e)),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, version]);
  return { data, error, setError };
}
