import type { Knex } from 'knex';
import * as m20261121140000 from './20261121140000_directory.ts';
import * as m20261121141000 from './20261121141000_wiki.ts';
import * as m20261121142000 from './20261121142000_tracker.ts';
import * as m20261121143000 from './20261121143000_fieldeditor_grants.ts';
import * as m20261121144000 from './20261121144000_fieldeditor_options.ts';
import * as m20261121145500 from './20261121145500_wiki_read_restricted.ts';
import * as m20261123090000 from './20261123090000_fieldeditor_orphan_grants.ts';
import * as m20261123100000 from './20261123100000_token_scope_space_trash.ts';
import * as m20261123110000 from './20261123110000_jobs.ts';
import * as m20261123111000 from './20261123111000_event_log.ts';
import * as m20261123112000 from './20261123112000_field_search.ts';
import * as m20261123130000 from './20261123130000_web_sessions.ts';
import * as m20261127060000 from './20261127060000_event_log_operation.ts';
import * as m20261127070000 from './20261127070000_webhooks.ts';
import * as m20261127100000 from './20261127100000_migration_id_map.ts';
import * as m20261127101000 from './20261127101000_content_ids_64bit.ts';
import * as m20261127102000 from './20261127102000_space_home_page.ts';
import * as m20261128200000 from './20261128200000_option_write_functions.ts';
import * as m20261128203000 from './20261128203000_auth_failures_per_address.ts';
import * as m20261128210000 from './20261128210000_webhooks_served_at.ts';
import * as m20261129040000 from './20261129040000_event_log_actor_key_lower.ts';

/**
 * Every migration, by name. Names sort in the order they run; a test checks that each file of this folder
 * is listed here. Features add their own files and one line each.
 */
export const migrations: Record<string, Knex.Migration> = {
  '20261121140000_directory': m20261121140000,
  '20261121141000_wiki': m20261121141000,
  '20261121142000_tracker': m20261121142000,
  '20261121143000_fieldeditor_grants': m20261121143000,
  '20261121144000_fieldeditor_options': m20261121144000,
  '20261121145500_wiki_read_restricted': m20261121145500,
  '20261123090000_fieldeditor_orphan_grants': m20261123090000,
  '20261123100000_token_scope_space_trash': m20261123100000,
  '20261123110000_jobs': m20261123110000,
  '20261123111000_event_log': m20261123111000,
  '20261123112000_field_search': m20261123112000,
  '20261123130000_web_sessions': m20261123130000,
  '20261127060000_event_log_operation': m20261127060000,
  '20261127070000_webhooks': m20261127070000,
  '20261127100000_migration_id_map': m20261127100000,
  '20261127101000_content_ids_64bit': m20261127101000,
  '20261127102000_space_home_page': m20261127102000,
  '20261128200000_option_write_functions': m20261128200000,
  '20261128203000_auth_failures_per_address': m20261128203000,
  '20261128210000_webhooks_served_at': m20261128210000,
  '20261129040000_event_log_actor_key_lower': m20261129040000,
};
