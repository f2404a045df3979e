/**
 * Jest runs TypeScript through swc (type-checking is the separate `tsc --noEmit` step of `npm test`).
 *
 * Five projects, one per test layer; `npm run test:unit` is the fast loop (no Java, no server), `npm test` runs all:
 *   unit         pure logic, in-memory ports, real sharp: no DynamoDB Local
 *   infra        CDK synth and Template assertions: no DynamoDB Local
 *   integration  adapters against a real DynamoDB Local, real HTTP peers
 *   e2e          the local server over HTTP, `npm start` itself
 *   reliability  faults, hostile input, SSRF, keys in logs
 */
const swc = [
  '@swc/jest',
  { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
];

const common = {
  testEnvironment: '<rootDir>/test/support/node-environment.js',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  // @middy/* ships ESM only: let swc turn it into CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!@middy/)'],
  setupFiles: ['<rootDir>/test/support/quiet-logs.ts', '<rootDir>/test/support/isolated-state.ts'],
};

/** Layers that need DynamoDB Local start one for the whole run; each suite makes its own prefixed tables in it. */
const withDynamoDbLocal = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

const layer = (name, extra = {}) => ({
  ...common,
  displayName: name,
  testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
  ...extra,
});

module.exports = {
  testTimeout: 60_000,
  projects: [
    layer('unit'),
    layer('infra'),
    layer('integration', withDynamoDbLocal),
    layer('e2e', withDynamoDbLocal),
    layer('reliability', withDynamoDbLocal),
  ],
};
