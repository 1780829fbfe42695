// The examples/jest-cjs app on msw 2.11.3 and later, whose CommonJS build requires ES-module-only packages
// (mswjs/msw#2698): Jest transforms those three too (not the rest of node_modules), ts-jest compiling them to
// CommonJS like the app's own TypeScript. The setup docs/msw.md gives, word for word.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.m?[tj]sx?$': ['ts-jest', { tsconfig: { allowJs: true } }] },
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft/deferred-promise)/)'],
};
