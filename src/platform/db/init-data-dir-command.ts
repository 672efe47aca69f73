/**
 * The hidden command under which a child process creates a new embedded data directory (embedded-pglite.ts).
 * Its own module, so the command line can recognise it without loading PGlite.
 */
export const INIT_DATA_DIR_COMMAND = 'internal-init-data-dir';

/** The hidden command under which `npm run build` makes the migrated template of a new data folder (data-template.ts). */
export const MAKE_DATA_TEMPLATE_COMMAND = 'internal-make-data-template';
