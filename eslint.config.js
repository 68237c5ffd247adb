import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layers } from './eslint.layers.js';

export default tseslint.config(
  {
    ignores: ['dist/', 'dist-bench/', 'sdk/dist/', 'node_modules/', 'data/', 'coverage/', 'test-artifacts/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Fastify plugins and hooks are async by contract, whether or not they await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Migrations are typed Kysely<any> on purpose: they must not follow the Database type as it changes.
    files: [
      'src/store/migrations/**',
      'src/store/column-types.ts',
      'src/store/dialects/postgres/postgres-introspector.ts',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // What each layer may import (docs/architecture.md, "Layers").
  ...layers,
  {
    files: ['eslint.config.js', 'eslint.layers.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
