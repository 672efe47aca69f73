import { DEMO_FIELDS, DEMO_PROJECT_CONTEXT_ID } from '../../tracker/tracker.demo.ts';

/**
 * Options and defaults of the demo fields. Option ids are fixed (10000…) so that the curl lines of docs/
 * work as printed; alice holds grants on the single select and the cascading select.
 */
export const DEMO_OPTIONS = {
  medium: 10001,
  blocker: 10003,
  europe: 10030,
  germany: 10031,
  america: 10040,
} as const;

export function optionsDemoSections(): Record<string, unknown[]> {
  const f = DEMO_FIELDS;
  return {
    grants: [
      { fieldId: f.singleSelect.id, user: 'alice' },
      { fieldId: f.cascading.id, user: 'alice' },
      { fieldId: f.radio.id, context: 'default', group: 'developers' },
    ],
    options: [
      {
        fieldId: f.singleSelect.id,
        options: [
          { id: 10000, value: 'Low' },
          { id: DEMO_OPTIONS.medium, value: 'Medium' },
          { id: 10002, value: 'High' },
          { id: DEMO_OPTIONS.blocker, value: 'Blocker', disabled: true },
        ],
      },
      { fieldId: f.singleSelect.id, context: DEMO_PROJECT_CONTEXT_ID, options: [{ id: 10010, value: 'Crash' }, { id: 10011, value: 'Data loss' }] },
      { fieldId: f.radio.id, options: [{ id: 10020, value: 'Yes' }, { id: 10021, value: 'No' }, { id: 10022, value: 'Maybe' }] },
      {
        fieldId: f.cascading.id,
        options: [
          {
            id: DEMO_OPTIONS.europe,
            value: 'Europe',
            children: [{ id: DEMO_OPTIONS.germany, value: 'Germany' }, { id: 10032, value: 'France' }, { id: 10033, value: 'Austria' }],
          },
          { id: DEMO_OPTIONS.america, value: 'America', children: [{ id: 10041, value: 'Canada' }, { id: 10042, value: 'Brazil' }] },
        ],
      },
      { fieldId: f.multiSelect.id, options: [{ id: 10050, value: 'Red' }, { id: 10051, value: 'Green' }, { id: 10052, value: 'Blue' }] },
      { fieldId: f.checkboxes.id, options: [{ id: 10060, value: 'Email' }, { id: 10061, value: 'Phone' }, { id: 10062, value: 'Chat' }] },
      {
        fieldId: f.multiLevel.id,
        options: [
          { id: 10070, value: 'Hardware', children: [{ id: 10071, value: 'Laptop', children: [{ id: 10072, value: '13 inch' }, { id: 10073, value: '15 inch' }] }] },
          { id: 10080, value: 'Software', children: [{ id: 10081, value: 'Operating system', children: [{ id: 10082, value: 'Linux' }, { id: 10083, value: 'Windows' }] }] },
        ],
      },
    ],
    defaults: [
      { fieldId: f.singleSelect.id, value: 'Medium' },
      { fieldId: f.cascading.id, value: 'Europe', childValue: 'Germany' },
      { fieldId: f.multiSelect.id, values: ['Red', 'Blue'] },
    ],
  };
}

export function optionsDemoCurlLines(baseUrl: string): string[] {
  const opts = `${baseUrl}/rest/trackercustomfieldeditorplugin/1/user/customfields`;
  const single = `${opts}/${DEMO_FIELDS.singleSelect.id}/contexts/default/options`;
  const cascading = `${opts}/${DEMO_FIELDS.cascading.id}/contexts/default/options`;
  // Reads only: a line a reader runs twice, or before following docs/fieldeditor-api.md, must change nothing.
  return [
    `curl -u alice:alice ${single}`,
    `curl -u alice:alice ${cascading}/${DEMO_OPTIONS.europe}/childoptions`,
    `curl -u alice:alice ${cascading}/default`,
  ];
}
