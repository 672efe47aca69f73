// OpenAPI declarations of the default-value routes (U15); see docs/openapi.md.
import { empty, json, type OperationDoc } from '../../platform/openapi/operation.ts';
import { contextParams, defaultReadModel } from '../fieldeditor.openapi-schemas.ts';
import { defaultWriteBody } from './defaults.schemas.ts';

const TAG = 'User: default values';
const PATH = '/user/customfields/{customFieldId}/contexts/{contextId}/options/default';
const ERRORS = [400, 403, 404];

export const defaultsOperations: OperationDoc[] = [
  { method: 'get', path: PATH, tag: TAG, access: 'user', summary: 'U15: the default value of a context', params: contextParams, responses: { 200: json(defaultReadModel, 'The read model ({} when none)') }, errors: ERRORS },
  {
    method: 'put', path: PATH, tag: TAG, access: 'user', summary: 'U15: set the default value', description: 'optionId (single, radio, cascading), childOptionId (cascading), optionIds (multi)',
    params: contextParams, body: defaultWriteBody, responses: { 200: json(defaultReadModel, 'The new read model') }, errors: ERRORS,
  },
  { method: 'delete', path: PATH, tag: TAG, access: 'user', summary: 'U15: remove the default value', params: contextParams, responses: { 204: empty('Removed') }, errors: ERRORS },
];
