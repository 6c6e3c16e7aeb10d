// typescript-eslint's recommended rules on the project's own code (test/lint-outputs.test.ts lints what the
// rewrite writes, with rules of its own).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      // What the tool reads and writes, not its code: fixtures, example and test servers, the editor packages.
      '__testfixtures__/**',
      'examples/**',
      'editors/**',
      'test/user-projects/**',
      'test/real-servers/**',
      'test/http-servers/**',
      'test/conformance/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      // `const { kind: _k, ...cause } = row`: the names left out by a rest are read by it.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // The requestState module is written into the user's project as it is (src/runtime/emit.ts): its text changes only
    // with its version, and its `void` of the fields a rest leaves out keeps it clean under the user's own linter.
    files: ['src/runtime/**'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
