// ts-jest's default preset, as `npx ts-jest config:init` writes it: nothing for ESM, no transformIgnorePatterns, no
// moduleNameMapper. The packages' CommonJS builds are what `require()` loads.
const { createDefaultPreset } = require('ts-jest');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  ...createDefaultPreset(),
};
