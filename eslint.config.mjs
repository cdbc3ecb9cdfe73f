// Lint for one class of bug: a promise nobody handles. The serving process logs and counts a
// rejection left unhandled (src/server/processFailures.ts), but it is still an operation that
// failed without telling its caller, so src/ may not leave a promise floating or hand one to a
// callback that ignores it. Those two rules only: tsc --noEmit checks the rest. Typed (the
// project's tsconfig), which is what lets the rules see which calls return promises.
import tseslint from 'typescript-eslint';

export default tseslint.config({
  files: ['src/**/*.ts'],
  ignores: ['src/generated/**'],
  languageOptions: {
    parser: tseslint.parser,
    parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
  },
  plugins: { '@typescript-eslint': tseslint.plugin },
  linterOptions: { reportUnusedDisableDirectives: 'error' },
  rules: {
    '@typescript-eslint/no-floating-promises': 'error',
    '@typescript-eslint/no-misused-promises': 'error',
  },
});
