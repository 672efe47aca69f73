import type { Registry } from 'prom-client';

/** Upper bounds (seconds) of the request duration buckets: from a cached answer (< 1 ms) to a slow import. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Label of requests that no route matched (unknown paths, and credentials refused before routing). */
export const UNMATCHED_ROUTE = '(unmatched)';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

interface Series {
  /** Per bucket (and one more for +Inf), not yet cumulative. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * The request duration histogram, `addon_pair_http_request_duration_seconds{route, method, status_class}`.
 * Recording is on every request's path, so it is kept to two Map lookups, an array index and a few additions:
 * no label object, no string built per request (prom-client's `observe` builds and hashes both each time).
 * The exposition text is made only when scraped. Labels come from a closed set: the route templates the app
 * registered, seven methods (others count as `OTHER`) and five status classes.
 */
export class RouteTimings {
  private readonly byRoute = new Map<string, Map<string, (Series | undefined)[]>>();

  record(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    const m = METHODS.has(method) ? method : 'OTHER';
    let byClass = byMethod.get(m);
    if (!byClass) byMethod.set(m, (byClass = []));
    const cls = Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1;
    let series = byClass[cls];
    if (!series) byClass[cls] = series = { counts: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 };
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
    series.counts[i]!++;
    series.sum += seconds;
    series.count++;
  }

  /** Registers the histogram with `registry` (prom-client reads any object with `get()`; see registry.js). */
  register(registry: Registry, name = 'addon_pair_http_request_duration_seconds'): void {
    const help = 'Time from a request arriving to its response being finished, by route template, method and status class';
    const metric = { name, help, type: 'histogram', aggregator: 'sum', get: async () => ({ name, help, type: 'histogram', aggregator: 'sum', values: this.values(name) }) };
    registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  private values(name: string) {
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
    for (const [route, byMethod] of this.byRoute) {
      for (const [method, byClass] of byMethod) {
        byClass.forEach((series, cls) => {
          if (!series) return;
          const labels = { route, method, status_class: STATUS_CLASSES[cls]! };
          let cumulative = 0;
          DURATION_BUCKETS.forEach((le, i) => {
            cumulative += series.counts[i]!;
            values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
          });
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: series.count });
          values.push({ metricName: `${name}_sum`, labels, value: series.sum });
          values.push({ metricName: `${name}_count`, labels, value: series.count });
        });
      }
    }
    return values;
  }
}
