// ESLint's own recommended rules, for the mistakes a reader misses (unused names, unreachable
// code, a shadowed promise); layout is Prettier's job (.prettierrc.json), so no style rules here.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', '.cache/', 'mmapbench-reproduce/', 'mmapbench-results/', 'dist/'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      'prefer-const': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  { files: ['test/fixtures/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
];
