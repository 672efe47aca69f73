/**
 * The dependency rules of docs/architecture.md, checked in CI (`npm run depcheck`):
 * - no cycles between modules;
 * - host features and the platform never import an add-on (the add-ons extend the hosts through hooks);
 * - the platform imports no feature;
 * - HTTP routers and endpoint declarations do not touch the database (no Knex, no repository): handlers parse,
 *   call a service, answer;
 * - a field-editor room imports only access/, shared/ and itself; the field editor's top level is its wiring, which
 *   no room imports;
 * - src/migration/ writes other features' data through their exports for importers, never a repository;
 * - webhooks (an add-on of the field editor) import none of its code, and nothing but the composition imports them.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes two modules one: break it with a hook or by moving the shared part down.',
      from: { path: '^src' },
      to: { circular: true },
    },
    {
      name: 'hosts-do-not-import-add-ons',
      severity: 'error',
      comment: 'The directory, wiki and tracker hosts (and the platform) know nothing of the add-ons that extend them.',
      from: { path: '^src/(platform|directory|wiki|tracker)/' },
      to: { path: '^src/(codeblocks|fieldeditor|webhooks)/' },
    },
    {
      name: 'platform-imports-no-feature',
      severity: 'error',
      comment: 'The platform is cross-cutting machinery; features depend on it, never the other way round.',
      from: { path: '^src/platform/' },
      to: { path: '^src/(directory|wiki|tracker|codeblocks|fieldeditor|demo|importer|cli|web)/' },
    },
    {
      name: 'routes-do-not-touch-the-database',
      severity: 'error',
      comment: 'A *.routes.ts or *.endpoints.ts file parses, calls one service and answers; SQL lives in repositories.',
      from: { path: '\\.(routes|endpoints)\\.ts$' },
      to: { path: '^node_modules/(knex|pg|@electric-sql/pglite|knex-pglite)/' },
    },
    {
      name: 'routes-do-not-call-repositories',
      severity: 'error',
      comment: 'Routes and endpoints reach data through a service only (the row types of a repository may be imported).',
      from: { path: '\\.(routes|endpoints)\\.ts$' },
      to: { path: '(\\.repository\\.ts$|^src/platform/db/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'fieldeditor-rooms-stay-apart',
      severity: 'error',
      comment:
        'A field-editor room (a folder of src/fieldeditor/) reaches another room only through a service passed in ' +
        '(its type may be imported): it imports access/, shared/ (errors, schemas, presenters, topics, paths and ' +
        'the model several rooms share) and itself. description/ (the M4 document, built from every declaration) ' +
        'and compat-1.1/ (API 1.1, declared over the options room) describe the rooms and own no table, so they ' +
        'may import them; no room imports them.',
      from: { path: '^src/fieldeditor/([^/]+)/', pathNot: '^src/fieldeditor/(description|compat-1\\.1)/' },
      to: { path: '^src/fieldeditor/[^/]+/', pathNot: '^src/fieldeditor/($1|access|shared)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'fieldeditor-top-level-is-wiring',
      severity: 'error',
      comment:
        'The top level of src/fieldeditor/ holds only its wiring (fieldeditor.feature.ts builds the services, ' +
        'fieldeditor.endpoints.ts lists every endpoint), which imports the rooms; what several rooms share lives in ' +
        'shared/. So no room imports a top-level file, except description/, which describes the endpoint list.',
      from: { path: '^src/fieldeditor/[^/]+/', pathNot: '^src/fieldeditor/description/' },
      to: { path: '^src/fieldeditor/[^/]+\\.ts$' },
    },
    {
      name: 'migration-writes-through-importer-exports',
      severity: 'error',
      comment:
        'An import from elsewhere (src/migration/) writes other features\' data through what those features export ' +
        'for importers (their import parts, services, or a port: directory/directory-import-port.ts, ' +
        'wiki/wiki-import-port.ts, tracker/tracker-import-port.ts, fieldeditor/options/options-import-port.ts, ' +
        'fieldeditor/grants/grants-import-port.ts), never through a repository, its own or theirs: the owner keeps ' +
        'its SQL and its rules (ids, sequences, restrictions) in one place. Its own id map ' +
        '(migration-records.repository.ts) is the one repository it imports; row types may be imported.',
      from: { path: '^src/migration/' },
      to: {
        path: '\\.repository\\.ts$',
        pathNot: '^src/migration/migration-records\\.repository\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'webhooks-stand-beside-the-field-editor',
      severity: 'error',
      comment:
        'Webhooks are delivered from the field editor\'s event log, which they read through their own read-only ' +
        'repository (webhooks/event-feed.repository.ts) and whose deletions reach them through a hook the composition ' +
        'root registers: they import no field-editor code, and the field editor and code blocks never import them.',
      from: { path: '^src/webhooks/' },
      to: { path: '^src/(fieldeditor|codeblocks)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'add-ons-do-not-import-webhooks',
      severity: 'error',
      comment: 'Only the composition (services.ts, app.ts, apidocs/) knows of webhooks.',
      from: { path: '^src/(fieldeditor|codeblocks|web)/' },
      to: { path: '^src/webhooks/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Keep paths under node_modules/ when node_modules is a symbolic link (a git worktree sharing one), so the
    // rules that name node_modules/… still match.
    preserveSymlinks: true,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
