/** The service's descriptions for machines: the OpenAPI document, the root's `service-desc`, relation pages as JSON. */
import { expect } from 'vitest';
import { BASE, ORIGIN } from '../fixture.js';
import type { ContractCase } from './types.js';

export const openApiCases: ContractCase[] = [
  {
    name: 'OpenAPI: the document, open and revalidated, linked from the root as service-desc',
    async run(s) {
      const document = await s.send('the document', `${BASE}/openapi.json`);
      expect(document.json().openapi).toBe('3.1.0');
      expect(document.json().servers).toEqual([{ url: ORIGIN }]);
      const etag = document.headers.get('etag')!;
      const again = await s.send('the document revalidated', `${BASE}/openapi.json`, {
        headers: { 'if-none-match': etag },
      });
      expect(again.status).toBe(304);
      await s.send('the document without .json', `${BASE}/openapi`, { method: 'HEAD' });
      const admin = await s.token('admin');
      const root = await s.send('root', BASE, { token: admin });
      expect(root.json()._links['service-desc']).toEqual({
        href: `${BASE}/openapi.json`,
        type: 'application/vnd.oai.openapi+json;version=3.1',
      });
    },
  },
  {
    name: 'relation pages as JSON on Accept: application/json, HTML otherwise',
    async run(s) {
      const json = await s.send('rel as JSON', '/rels/update_template', { headers: { accept: 'application/json' } });
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      expect(json.json()).toMatchObject({ name: 'svc:update_template', method: 'put', title: 'Update template' });
      expect(json.headers.get('vary')).toMatch(/^Accept\b/);
      await s.send('rel as HAL+JSON', '/rels/all_products', { headers: { accept: 'application/hal+json' } });
      const html = await s.send('rel for a browser', '/rels/update_template', {
        headers: { accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8' },
      });
      expect(html.headers.get('content-type')).toMatch(/^text\/html/);
      await s.send('unknown rel as JSON', '/rels/no_such_rel', { headers: { accept: 'application/json' } });
    },
  },
];
