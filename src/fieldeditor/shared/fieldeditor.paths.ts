import type { ApiVersion } from './fieldeditor.errors.ts';

/** Base paths the field editor answers under: its own name and the original product's, each in two versions. */
export const FIELDEDITOR_BASES: { path: string; version: ApiVersion }[] = [
  { path: '/rest/trackercustomfieldeditorplugin/1', version: '1' },
  { path: '/rest/trackercustomfieldeditorplugin/1.2', version: '1.2' },
  { path: '/rest/jiracustomfieldeditorplugin/1', version: '1' },
  { path: '/rest/jiracustomfieldeditorplugin/1.2', version: '1.2' },
];
