/**
 * The one date format of the interface: the reader's locale and time zone, with the zone named, to the minute
 * (the title of a <time> gives the seconds). The APIs answer ISO 8601 (`…Z`, `+00:00`) or the jobs' `+0000`.
 */
const FORMAT: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };

/** A date from any of the APIs' time formats; undefined when there is none or it does not parse. */
export function parseTime(t: string | null | undefined): Date | undefined {
  if (!t) return undefined;
  const d = new Date(t.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** The text of a time, or a dash. */
export function when(t: string | null | undefined): string {
  const d = parseTime(t);
  return d ? d.toLocaleString(undefined, FORMAT) : '—';
}
