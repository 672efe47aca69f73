import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const REPOSITORY_FILES = ['src/**/*.repository.ts', 'src/platform/db/**'];
const REGISTRY_FILES = ['src/**/*.errors.ts', 'src/platform/http/app-error.ts'];

const TABLE_SELECTORS = [
  {
    selector: "CallExpression[callee.type='Identifier'][callee.name=/^(knex|trx|tx|q|db)$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]",
    message: 'A table is queried outside a repository: move the query into the owning folder\'s *.repository.ts.',
  },
  {
    selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(knex|trx)$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]",
    message: 'A table is queried outside a repository: move the query into the owning folder\'s *.repository.ts.',
  },
  {
    selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(raw|fromRaw|whereRaw|joinRaw)$/]",
    message: 'SQL text is sent outside a repository: move it into the owning folder\'s *.repository.ts.',
  },
  {
    selector: "CallExpression[callee.type='MemberExpression'][callee.object.type='CallExpression'][callee.property.name=/^(from|into|table)$/]",
    message: 'A table is queried outside a repository: move the query into the owning folder\'s *.repository.ts.',
  },
];

const ERROR_SELECTORS = [
  {
    selector: "NewExpression[callee.name='AppError']",
    message: "An error is made outside its API's registry: add a named factory to the API's *.errors.ts (e.g. platform/http/platform.errors.ts) and call it.",
  },
  {
    // badRequest(message, details, code), forbidden/notFound/conflict(message, code): the code argument.
    selector:
      "CallExpression[callee.name='badRequest'][arguments.length>2], CallExpression[callee.name=/^(forbidden|notFound|conflict)$/][arguments.length>1]",
    message: "An error code is given outside its API's registry: add a named factory to the API's *.errors.ts and call it.",
  },
];

/*
 * Table ownership (docs/architecture.md, "Rooms and tables"): a table's name, in any string or template of the
 * code, appears only under the folders that own it; another folder reaches its rows through what an owner
 * exports. The schema migrations (platform/db/migrations) create every table and are left out. One rule per
 * table (`tables/<name>`), so the blocks below do not replace each other.
 */
const TABLE_OWNERS = {
  field_grants: ['src/fieldeditor/access/**', 'src/fieldeditor/grants/**'],
  web_sessions: ['src/web/sessions/**'],
  webhook_deliveries: ['src/webhooks/**'],
  migration_records: ['src/migration/**'],
};
const namesTable = (table) => new RegExp(`\\b${table}\\b`);
const tableRule = (table, owners) => ({
  meta: { type: 'problem', schema: [] },
  create(context) {
    const check = (node, text) => {
      if (typeof text === 'string' && namesTable(table).test(text)) {
        context.report({ node, message: `The table ${table} belongs to ${owners.join(', ')}: reach it through what its owner exports.` });
      }
    };
    return { Literal: (node) => check(node, node.value), TemplateElement: (node) => check(node, node.value.raw) };
  },
});
const tablesPlugin = { rules: Object.fromEntries(Object.entries(TABLE_OWNERS).map(([table, owners]) => [table, tableRule(table, owners)])) };
const tableOwnership = Object.entries(TABLE_OWNERS).map(([table, owners]) => ({
  files: ['src/**/*.ts'],
  ignores: [...owners, 'src/platform/db/migrations/**'],
  plugins: { tables: tablesPlugin },
  rules: { [`tables/${table}`]: 'error' },
}));

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'bench/results', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  // Only repositories touch tables (docs/architecture.md, "Rooms and tables"): outside a `*.repository.ts` (and
  // the database machinery of platform/db), no query builder is started on a table and no SQL text is sent.
  // Error codes live in one registry per API (docs/architecture.md, "Error registries"): outside a `*.errors.ts`
  // (and app-error.ts, which defines the type and its generic helpers), no AppError is made and no code is given
  // to a generic helper. test/process/lint-rules.test.ts shows each selector firing (and not firing where allowed).
  // A later block replaces an earlier one's no-restricted-syntax, so each file matches exactly one of the three.
  {
    files: ['src/**/*.ts'],
    ignores: [...REPOSITORY_FILES, ...REGISTRY_FILES],
    rules: { 'no-restricted-syntax': ['error', ...TABLE_SELECTORS, ...ERROR_SELECTORS] },
  },
  { files: REPOSITORY_FILES, ignores: REGISTRY_FILES, rules: { 'no-restricted-syntax': ['error', ...ERROR_SELECTORS] } },
  { files: REGISTRY_FILES, ignores: REPOSITORY_FILES, rules: { 'no-restricted-syntax': ['error', ...TABLE_SELECTORS] } },
  ...tableOwnership,
  // CommonJS configuration files of tools (dependency-cruiser reads .cjs).
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
);
