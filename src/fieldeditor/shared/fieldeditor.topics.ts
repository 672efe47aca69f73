/*
 * Change-feed topics of the field editor's own data (fields, contexts and grants announce the tracker's
 * topic, users and groups the directory's). Every write of these announces its topic after it commits,
 * and the per-node read caches (access/scope.cache.ts, options, defaults, U2/U3, settings) are cleared
 * by it on every node before the write answers.
 */

/** Option lists and default values: every option and default write, in any context. */
export const FIELD_OPTIONS_TOPIC = 'fieldeditor-options';

/** The host-wide settings (`/admin/settings`). */
export const FIELDEDITOR_SETTINGS_TOPIC = 'fieldeditor-settings';
