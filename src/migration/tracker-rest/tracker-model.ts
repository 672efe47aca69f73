// What the tracker reader hands the field writer: one select field of the source with everything the field
// editor keeps about it (contexts and their scope, the option tree of each context in order, defaults, grants),
// plus the users and groups its grants name. Ids are the source's; the writer keeps them where free.
import { fingerprintOf } from '../migration-records.repository.ts';
import type { SourceGroup, SourceUser } from '../wiki/space-model.ts';

export type { SourceGroup, SourceUser };

export interface SourceOption {
  id: number;
  value: string;
  disabled: boolean;
  /** Child options in order (cascading selects; any depth for the multi-level one). */
  children: SourceOption[];
}

export interface SourceProject {
  key: string;
  name: string;
  description: string;
}

export interface SourceIssueType {
  name: string;
  description: string;
  subtask: boolean;
}

export interface SourceContext {
  id: number;
  name: string;
  description: string;
  /** The context the add-on's `default` addresses (the field's automatic global context). */
  isDefault: boolean;
  /** Undefined when the source does not tell (old installations answer no `expand`): the scope is left as it is. */
  projects?: SourceProject[];
  issueTypes?: SourceIssueType[];
  options: SourceOption[];
  /** Source ids of the default value's options, in order (single: one; cascading: parent then child; multi: all). */
  defaultOptionIds: number[];
}

export interface SourceGrant {
  /** Source context id; null for a global grant on the field. */
  contextId: number | null;
  type: 'user' | 'group';
  name: string;
}

export interface SourceTrackerField {
  id: number;
  name: string;
  description: string;
  /** Full type key, e.g. com.atlassian.jira.plugin.system.customfieldtypes:cascadingselect. */
  typeKey: string;
  /** Default context first. */
  contexts: SourceContext[];
  grants: SourceGrant[];
}

/** The users and groups a field's grants name, as the source knows them (null: the source does not know it). */
export interface SourcePrincipals {
  users: Map<string, SourceUser | null>;
  groups: Map<string, SourceGroup | null>;
}

/** What a field of the source list is, before its details are read. */
export interface SourceFieldHeader {
  id: number;
  name: string;
  description: string;
  typeKey: string;
}

/**
 * The largest source ids of a run. A record whose id is taken here gets a new id past them (and past every id
 * here), so that a new id never lands on a source id still free that a later field of the run keeps.
 */
export interface SourceMaxIds {
  field: number;
  context: number;
  option: number;
}

export function maxIdsOf(headers: readonly SourceFieldHeader[], fields: readonly SourceTrackerField[]): SourceMaxIds {
  const max = { field: 0, context: 0, option: 0 };
  for (const h of headers) max.field = Math.max(max.field, h.id);
  for (const f of fields) {
    for (const c of f.contexts) {
      max.context = Math.max(max.context, c.id);
      for (const o of walkOptions(c.options)) max.option = Math.max(max.option, o.id);
    }
  }
  return max;
}

/** hex SHA-256 of everything imported about a field: a re-run with the same fingerprint changes nothing. */
export function fieldFingerprint(field: SourceTrackerField, principals: SourcePrincipals): string {
  return fingerprintOf({ field, users: Object.fromEntries(principals.users), groups: Object.fromEntries(principals.groups) });
}

/** Every option of a tree, depth first. */
export function* walkOptions(options: readonly SourceOption[]): Generator<SourceOption> {
  for (const o of options) {
    yield o;
    yield* walkOptions(o.children);
  }
}
