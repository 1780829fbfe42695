/**
 * The explorer's "Copy as SDK code" as a user pastes it into a strict TypeScript project: the code of a follow
 * chain through embedded resources, a write with a body, a resource opened by its address, and a list whose form
 * was filled in (its numbers typed as text) type-checks with this repository's tsconfig (strict,
 * `noUncheckedIndexedAccess`).
 */
import { describe, expect, it } from 'vitest';
import { type Step, sdkCode } from '../../server/src/explorer/page/follow-chain.js';
import { variableArgs } from '../../server/src/explorer/page/variable-values.js';
import { formatErrors, typeCheck } from './snippets.js';

const BASE = 'http://127.0.0.1:4000/v1';

describe('Copy as SDK code', () => {
  it('type-checks under strict tsc, the token narrowed from process.env', () => {
    const chain: Step[] = [
      { kind: 'root' },
      { kind: 'embedded', name: 'shops', index: 0, label: 'Dana Demo' },
      { kind: 'follow', rel: 'self', method: 'GET' },
      { kind: 'follow', rel: 'svc:theme', method: 'GET' },
      { kind: 'embedded', name: 'templates', index: 2, label: 'page.html', self: `${BASE}/themes/1/templates/3.json` },
      { kind: 'follow', rel: 'svc:update_template', method: 'PUT', args: { body: '<p>new</p>\n' } },
    ];
    // An asset has no `self`: found by its `id`.
    const asset: Step[] = [
      { kind: 'root' },
      { kind: 'embedded', name: 'shops', index: 0, label: 'Dana Demo', self: `${BASE}/shops/1.json` },
      { kind: 'follow', rel: 'self', method: 'GET' },
      { kind: 'follow', rel: 'svc:theme', method: 'GET' },
      { kind: 'embedded', name: 'assets', index: 0, label: 'logo.png', id: '7' },
      { kind: 'follow', rel: 'svc:delete_theme_asset', method: 'DELETE' },
    ];
    const opened: Step[] = [
      { kind: 'address', url: `${BASE}/shops/1.json` },
      { kind: 'follow', rel: 'svc:theme', method: 'GET' },
      { kind: 'embedded', name: 'templates', index: 0, label: 'layout.html' },
    ];
    const listed: Step[] = [
      { kind: 'root' },
      {
        kind: 'follow',
        rel: 'svc:all_products',
        method: 'GET',
        args: variableArgs([
          { name: 'per_page', value: '5' },
          { name: 'page', value: '2' },
          { name: 'q', value: '42' },
        ]),
      },
    ];
    const snippets = [chain, opened, listed, asset].map((steps, i) => ({
      file: `explorer-sdk-code-${i}.md`,
      line: 1,
      code: sdkCode(steps, BASE),
    }));
    const errors = typeCheck(snippets);
    expect(errors, `${formatErrors(errors)}\n\n${snippets.map((s) => s.code).join('\n')}`).toEqual([]);
  }, 120_000);
});
