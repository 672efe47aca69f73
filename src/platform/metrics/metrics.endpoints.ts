// The Prometheus exposition on the main port (under the context path), declared like every other endpoint. It
// is served there only with METRICS_PORT=0 and a METRICS_TOKEN; otherwise it has a port of its own
// (metrics.routes.ts) or is off.
import type { Endpoint } from '../http/endpoint.ts';
import { OPERATIONS_TAG, type ResponseDoc } from '../openapi/operation.ts';
import type { Metrics } from './metrics.ts';
import { METRICS_PATH, sendExposition } from './metrics.routes.ts';

const text = (description: string): ResponseDoc => ({ description, content: { 'text/plain': { type: 'string' } } });

export const metricsEndpoints: Endpoint<{ metrics: Metrics }>[] = [
  {
    method: 'get',
    path: METRICS_PATH,
    tag: OPERATIONS_TAG,
    access: 'metrics',
    summary: 'Prometheus metrics (text exposition format)',
    description:
      'Served here only when METRICS_PORT is 0 and METRICS_TOKEN is set; otherwise on the port METRICS_PORT names, or not at all. ' +
      'The metrics token is not a user credential, and no user credential opens this endpoint.',
    responses: {
      200: text('The exposition (`text/plain; version=0.0.4`)'),
      401: text('Without the metrics token, or with another credential'),
    },
    handle: (req, res, { metrics }) => sendExposition(metrics, req, res),
  },
];
