// Option lists in bulk (issue 27), each declared once: the batch of one list (top level or the children of
// one option). Under the `1` base paths only (412 under `1.2`, after the access check). The right and every
// rule are decided by the service inside the write, as for the single writes (options.endpoints.ts).
import { z } from 'zod';
import { currentUser } from '../../platform/auth/guards.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { json } from '../../platform/openapi/operation.ts';
import { parseOptionId, parseScopeIds } from '../access/ids.ts';
import { SINCE_1 } from '../fieldeditor.errors.ts';
import { contextParams, option, optionParams } from '../fieldeditor.openapi-schemas.ts';
import { batchBody, MAX_BATCH_ITEMS } from './options-batch.schemas.ts';
import type { OptionsDeps } from './options.endpoints.ts';

const TAG = 'User: options in bulk';
const OPTIONS = '/user/customfields/{customFieldId}/contexts/{contextId}/options';
const CHILDREN = `${OPTIONS}/{optionId}/childoptions`;

function batchEndpoint(child: boolean): Endpoint<OptionsDeps> {
  const what = child ? 'child options of one option' : 'top-level options';
  return {
    method: 'post', path: `${child ? CHILDREN : OPTIONS}/batch`, tag: TAG, access: 'user', versions: SINCE_1, params: child ? optionParams : contextParams,
    summary: `Create, update and delete up to ${MAX_BATCH_ITEMS} ${what} at once, all or nothing`,
    description:
      'One transaction: every item is checked first and a 400 names each invalid one (`create[3].optionvalue`, `update[0].id`, `delete[2]`), ' +
      'writing nothing; deletes follow the only-admins-delete setting (403003). Deletes run first, then updates, then creations (appended in the order sent). ' +
      `More than ${MAX_BATCH_ITEMS} items in all answer 413. Each changed option gets an event-log entry; the entries share one operationId.`,
    body: batchBody,
    responses: { 200: json(z.object({ options: z.array(option) }), 'The list after the batch, in order') },
    errors: [400, 403, 404, 409, 413],
    handle: async (req, res, { options }) => {
      const user = currentUser(req);
      const at = {
        ids: parseScopeIds(pathParam(req, 'customFieldId'), pathParam(req, 'contextId')),
        parentId: child ? parseOptionId(pathParam(req, 'optionId'), 'optionId') : null,
      };
      res.json(await options.batch(user, at, req.body ?? {}));
    },
  };
}

export const optionsBulkEndpoints: Endpoint<OptionsDeps>[] = [batchEndpoint(false), batchEndpoint(true)];
