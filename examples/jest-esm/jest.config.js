// Jest's ESM mode, ts-jest's recipe: the ESM preset, `.js` in relative imports mapped to the TypeScript sources,
// and `node --experimental-vm-modules` (the `test` script). The packages' ESM builds are what `import` loads.
import { createDefaultEsmPreset } from 'ts-jest';

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  ...createDefaultEsmPreset(),
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
