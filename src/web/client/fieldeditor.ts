/** Shapes and URL helpers of the field editor's REST API, as the interface uses them. */
import { FE } from './api.ts';

export interface FieldRecord {
  fieldId: number;
  fieldName: string;
  fieldDescription: string;
  fieldType: string;
}

export interface FieldPage {
  startAt: number;
  maxResults: number;
  total: number;
  values: FieldRecord[];
}

export interface ContextRecord {
  contextId: number;
  contextName: string;
  contextDescription: string;
  isGlobal: boolean;
  projects?: { id: number | string; key?: string; name?: string }[];
  issueTypes?: { id: number | string; name?: string }[];
}

export interface OptionRecord {
  id: number;
  optionvalue: string;
  sequence: number;
  disabled: boolean;
}

export interface DefaultReadModel {
  defaultOption?: OptionRecord | null;
  defaultChildOption?: OptionRecord | null;
  defaultOptions?: OptionRecord[] | null;
}

export interface ContextView {
  fieldId: number;
  fieldName: string;
  fieldType: string;
  context: ContextRecord;
  defaultOption: DefaultReadModel;
  authenticatedUserMeta: { userAllowedToDeleteOptions: boolean };
}

export type DefaultKind = 'single' | 'cascading' | 'multi' | 'none';

const isMultiLevel = (fieldType: string) => fieldType.includes('multi-level-cascading-select');

export function defaultKindOf(fieldType: string): DefaultKind {
  if (fieldType === 'cascadingselect' || isMultiLevel(fieldType)) return 'cascading';
  if (fieldType === 'singleselect' || fieldType === 'select' || fieldType === 'radiobuttons') return 'single';
  if (fieldType === 'multiselect' || fieldType === 'multicheckboxes') return 'multi';
  return 'none';
}

/** How deep child lists go: 1 = no children, 2 = the cascading select, Infinity = multi-level. */
export function maxDepthOf(fieldType: string): number {
  if (isMultiLevel(fieldType)) return Number.POSITIVE_INFINITY;
  return fieldType === 'cascadingselect' ? 2 : 1;
}

/** Paths of one context's option lists: the top-level list (parent null) or the children of any option. */
export class OptionPaths {
  readonly base: string;
  constructor(fieldId: string | number, contextId: string | number) {
    this.base = `${FE}/user/customfields/${encodeURIComponent(String(fieldId))}/contexts/${encodeURIComponent(String(contextId))}`;
  }
  list(parentId: number | null): string {
    return parentId === null ? `${this.base}/options` : `${this.base}/options/${parentId}/childoptions`;
  }
  item(parentId: number | null, id: number): string {
    return `${this.list(parentId)}/${id}`;
  }
  get defaults(): string {
    return `${this.base}/options/default`;
  }
}

/** The move body that puts the option at `to` in a list currently ordered as `ids` (it is at `from`). */
export function moveBody(ids: number[], from: number, to: number): { position: 'First' } | { after: number } {
  if (to <= 0) return { position: 'First' };
  // Moving down, it lands after the option now at `to`; moving up, after the one just before `to`.
  return { after: to > from ? ids[to]! : ids[to - 1]! };
}
