import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Lint for the whole repository (npm run lint; part of npm test, zero warnings). The architecture
 * (which folder may import which) is checked by dependency-cruiser: .dependency-cruiser.cjs.
 */
export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.test-output/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its errors; fire-and-forget is written `void promise`.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // `_name` marks a value left unused on purpose (a destructured key dropped, an ignored argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // These two are React Compiler purity checks; the renderer is not compiled by it, and the
      // patterns they flag here are deliberate: a prompt resets its busy flag when a new request
      // arrives, and the Markdown view keeps its incremental lexer in a ref.
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/refs': 'off',
    },
  },
  {
    // @tanstack/react-virtual is a devDependency of bench/virtualisers (measured against virtua); the app never bundles it.
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@tanstack/*'], message: 'The app virtualises with virtua; @tanstack/react-virtual is only for bench/virtualisers.' }] }] },
  },
  {
    files: ['**/*.{mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
);
