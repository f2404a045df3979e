/** Jest runs TypeScript through swc (type-checking is the separate `tsc --noEmit` step of `npm test`). */
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  // @middy/* ships ESM only: let swc turn it into CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!@middy/)'],
  setupFiles: ['<rootDir>/test/support/quiet-logs.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60_000,
};
