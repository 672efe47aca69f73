import fs from 'node:fs';
import path from 'node:path';
import { cpus, loadavg } from 'node:os';

const RESULTS = path.resolve(import.meta.dirname, '../results');

/**
 * Writes the report of a benchmark script that runs beside `npm run bench` (event-log.ts, feed-latency.ts) to
 * `bench/results/<name>.md`, under a heading that says when, on what, and how busy the machine was when the run
 * began (a ratio measured at load 10 on two cores means little; the reader should see that).
 */
export function writeSideReport(
  name: string,
  title: string,
  command: string,
  body: string[],
  loadAtStart: number,
): string {
  const file = path.join(RESULTS, `${name}.md`);
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}`;
  const text = [
    `# ${title}`,
    '',
    `Written by \`${command}\` at ${new Date().toISOString()}; ${machine}; load average ${loadAtStart.toFixed(2)} at start, ${(loadavg()[0] ?? 0).toFixed(2)} at the end.`,
    '',
    ...body,
    '',
  ].join('\n');
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** The one-minute load average now (the figure the report's heading quotes). */
export const currentLoad = (): number => loadavg()[0] ?? 0;
