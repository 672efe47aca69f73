// Wrong logins sent beside a measured load (a scenario's `alongside`, run by the load worker during that side's
// warm-up and rounds): the traffic of a stranger or an attacker whose cost to the others the scenario measures.
// Each login is a Basic header with a new unknown user name and a wrong password, on a connection of its own from
// `localAddress` (a loopback address other than the load's, so that the per-address limits see another client).
import http from 'node:http';
import type { AlongsideLoad } from './types.ts';

/** Starts sending; answers the function that stops it and tells how many were sent and how they were answered. */
export function startAlongside(a: AlongsideLoad): () => { sent: number; statuses: Record<string, number> } {
  const target = new URL(a.path, a.url);
  const statuses: Record<string, number> = {};
  let sent = 0;
  const one = () => {
    const name = `stranger-${process.pid}-${sent++}`;
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'GET',
        localAddress: a.localAddress,
        agent: false,
        headers: { authorization: `Basic ${Buffer.from(`${name}:wrong-password`).toString('base64')}` },
      },
      (res) => {
        statuses[String(res.statusCode)] = (statuses[String(res.statusCode)] ?? 0) + 1;
        res.resume();
      },
    );
    req.on('error', () => (statuses.error = (statuses.error ?? 0) + 1));
    req.end();
  };
  // Spread evenly over each second; setInterval keeps the rate without drifting much at 1 to 100 a second.
  const timer = setInterval(one, 1000 / a.perSecond);
  return () => {
    clearInterval(timer);
    return { sent, statuses };
  };
}
