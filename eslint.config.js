// @ts-check
/**
 * The project's lint: typescript-eslint with type information, a small rule set chosen for
 * what breaks a harness — promises nobody awaits (a check that ends before its call does),
 * awaits of non-promises, unused code, and the recommended correctness rules. `npm test`
 * runs it before the tests and fails on any finding.
 */
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'reports/**',
      'dist/**',
      'load/dist/**',
      'test-results/**',
      '.tmp/**',
      '**/*.js',
      '!eslint.config.js',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrors: 'none',
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty-pattern': 'off', // Playwright fixtures take `{}` when they need no other fixture
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Test kits read answers of many shapes by field; a loose type there is the point.
    files: ['src/server/test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
