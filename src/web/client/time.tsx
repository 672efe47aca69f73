import { parseTime, when } from './dates.ts';

/** A time as the interface shows every time (dates.ts), machine-readable, with the seconds in its title. */
export function Time({ value }: { value: string | null | undefined }) {
  const d = parseTime(value);
  if (!d) return <span class="muted">—</span>;
  return (
    <time dateTime={d.toISOString()} title={d.toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'long' })}>
      {when(value)}
    </time>
  );
}
