import { MULTI_LEVEL_CASCADING_KEY, SYSTEM_PREFIX } from './field-types.ts';

/**
 * The tracker part of the demo data set: project DEMO, issue types, one custom field of each editable type
 * (fixed ids, so that the curl lines of docs/ work as printed). The grants and options of these fields
 * belong to the field editor's demo sections (they use DEMO_FIELDS).
 */
export const DEMO_FIELDS = {
  singleSelect: { id: 10000, defaultContextId: 10100, name: 'Demo Single Select', type: `${SYSTEM_PREFIX}select` },
  radio: { id: 10001, defaultContextId: 10101, name: 'Demo Radio Buttons', type: `${SYSTEM_PREFIX}radiobuttons` },
  cascading: { id: 10002, defaultContextId: 10102, name: 'Demo Cascading Select', type: `${SYSTEM_PREFIX}cascadingselect` },
  multiSelect: { id: 10003, defaultContextId: 10103, name: 'Demo Multi Select', type: `${SYSTEM_PREFIX}multiselect` },
  checkboxes: { id: 10004, defaultContextId: 10104, name: 'Demo Checkboxes', type: `${SYSTEM_PREFIX}multicheckboxes` },
  multiLevel: { id: 10005, defaultContextId: 10105, name: 'Demo Multi-Level Cascading Select', type: MULTI_LEVEL_CASCADING_KEY },
} as const;

/** Second context of the single select, bound to project DEMO. */
export const DEMO_PROJECT_CONTEXT_ID = 10110;

export function trackerDemoSections(): Record<string, unknown[]> {
  return {
    projects: [{ id: 10000, key: 'DEMO', name: 'Demo project', description: 'Project of the demo data set', lead: 'alice' }],
    issueTypes: [
      { id: 10000, name: 'Bug', description: 'A problem', type: 'standard' },
      { id: 10001, name: 'Task', description: 'A task', type: 'standard' },
      { id: 10002, name: 'Sub-task', description: 'Part of a task', type: 'subtask' },
    ],
    fields: Object.values(DEMO_FIELDS).map((f) => ({
      id: f.id,
      defaultContextId: f.defaultContextId,
      name: f.name,
      type: f.type,
      description: `Demo field (${f.type.split(':')[1]})`,
      ...(f.id === DEMO_FIELDS.singleSelect.id
        ? { contexts: [{ id: DEMO_PROJECT_CONTEXT_ID, name: 'DEMO project bugs', description: 'Bugs of project DEMO', projectKeys: ['DEMO'], issueTypeNames: ['Bug'] }] }
        : {}),
    })),
  };
}

export function trackerDemoCurlLines(baseUrl: string): string[] {
  const fe = `${baseUrl}/rest/trackercustomfieldeditorplugin/1`;
  return [
    `curl -u admin:admin '${fe}/admin/customfields?maxResults=10&filter=demo'`,
    `curl -u alice:alice ${fe}/user/customfields`,
    `curl -u alice:alice ${fe}/user/customfields/${DEMO_FIELDS.singleSelect.id}/contexts/default`,
  ];
}
