// Projects so that `--selectProjects unit` runs without any Redis, the Redis server is started
// only when a *.redis.test.ts (or *.browser.test.ts) file actually runs, and the browser tests
// (Chromium driving the built pages, see test/support/browser.ts) can be run or left out alone.
const shared = {
  testEnvironment: 'node',
  // Type checking is `tsc --noEmit`'s job; ts-jest only transpiles (isolatedModules in tsconfig).
  transform: { '^.+\\.ts$': 'ts-jest' },
};

/** @type {import('jest').Config} */
module.exports = {
  // A global option: Jest ignores it inside a project. Redis-backed tests start servers and
  // clusters; unit tests finish far below it either way.
  testTimeout: 30000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '\\.redis\\.test\\.ts$', '\\.browser\\.test\\.ts$'],
    },
    {
      ...shared,
      displayName: 'redis',
      testMatch: ['<rootDir>/test/**/*.redis.test.ts'],
      globalSetup: '<rootDir>/test/support/globalSetup.ts',
      globalTeardown: '<rootDir>/test/support/globalTeardown.ts',
    },
    {
      ...shared,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.browser.test.ts'],
      // Builds web/ into dist/web, then starts the test Redis as the redis project does.
      globalSetup: '<rootDir>/test/support/browserSetup.ts',
      globalTeardown: '<rootDir>/test/support/globalTeardown.ts',
    },
  ],
};
