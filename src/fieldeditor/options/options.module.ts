import type { Db } from '../../platform/db/knex.ts';
import type { EventBus } from '../../platform/events/event-bus.ts';
import { DefaultsService } from '../defaults/defaults.service.ts';
import { OptionListCache } from './options.cache.ts';
import { OptionsService } from './options.service.ts';

/** The option and default-value services of one process (one list cache shared by every base path). */
export interface FieldeditorOptions {
  options: OptionsService;
  optionDefaults: DefaultsService;
}

export function createFieldeditorOptions(db: Db, events: EventBus): FieldeditorOptions {
  return {
    options: new OptionsService(db.knex, events, new OptionListCache()),
    optionDefaults: new DefaultsService(db.knex, events),
  };
}
