import { z } from 'zod';
import { lenientId } from '../../platform/http/id.schemas.ts';
import { bodyObject } from '../shared/fieldeditor.schemas.ts';

/** Default value write model; which members count depends on the field type (the others are ignored). */
export const defaultWriteBody = z.object(
  {
    optionId: lenientId.nullish(),
    childOptionId: lenientId.nullish(),
    optionIds: z.array(lenientId, { error: 'must be an array of option ids' }).max(1000).nullish(),
  },
  bodyObject,
);
