/** The base paths of API 1.1: its own name and the original product's (separate from FIELDEDITOR_BASES: other routes). */
export const COMPAT11_BASES = ['/rest/trackercustomfieldeditorplugin/1.1', '/rest/jiracustomfieldeditorplugin/1.1'] as const;
