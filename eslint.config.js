import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  // test/process/lint-rules.test.ts shows each selector firing (and not firing in a repository).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.repository.ts', 'src/platform/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
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
      ],
    },
  },
  // CommonJS configuration files of tools (dependency-cruiser reads .cjs).
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
);
