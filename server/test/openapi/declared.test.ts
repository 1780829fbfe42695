/** What the served document declares, against what the server sends: links, media types, headers, HEAD, JSONP. */
import { describe, expect, it } from 'vitest';
import { clientToken, useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ products: 2 });

// biome-ignore lint/suspicious/noExplicitAny: the document is read as the JSON it is
type Json = Record<string, any>;

async function served(): Promise<{ document: Json; type: string | null }> {
  const response = await fetch(`${server().baseUrl}/openapi.json`);
  return { document: await response.json(), type: response.headers.get('content-type') };
}

/** The document's path template that `url` falls under, if any. */
function describedPath(document: Json, url: string): string | undefined {
  const path = new URL(url).pathname;
  return Object.keys(document.paths).find((template) =>
    new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path),
  );
}

describe('the served document, as the server sends things', () => {
  it('is served as the media type the root’s service-desc link announces', async () => {
    const token = await clientToken(server());
    const root = await (await fetch(server().baseUrl, { headers: { authorization: `Bearer ${token}` } })).json();
    const { document, type } = await served();
    expect(root._links['service-desc'].type).toBe(type);
    const operation = document.paths[describedPath(document, root._links['service-desc'].href)!].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual([type!.split(';')[0]]);
  });

  it('names the theme preview at the address its link gives, and the page answers there', async () => {
    const token = await clientToken(server());
    const shop = server().store.all('shops')[0]!;
    const theme = await (
      await fetch(`${server().baseUrl}/shops/${shop.id}/theme.json`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    const href: string = theme._links['svc:theme_preview'].href;
    const { document } = await served();
    const path = describedPath(document, href);
    expect(path, href).toBeDefined();
    expect(document.paths[path!].get.operationId).toBe('previewPage');
    expect((await fetch(href)).status).toBe(200);
  });

  it('declares X-OAuth-Scopes as it is sent: empty on a 401, so not required', async () => {
    const response = await fetch(`${server().baseUrl}/shops.json`);
    expect(response.status).toBe(401);
    expect(response.headers.get('x-oauth-scopes')).toBe('');
    const { document } = await served();
    const header = document.components.headers.OAuthScopes;
    expect(header.required).not.toBe(true);
    expect(new RegExp(header.schema.pattern).test('')).toBe(true);
    expect(new RegExp(header.schema.pattern).test('admin,public')).toBe(true);
  });

  it('describes HEAD beside every GET, and the .jsonp form of every resource GET', async () => {
    const { document } = await served();
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      if (item.get) expect(item.head, path).toBeDefined();
      if (item.head) expect(item.head.responses['200'].content, path).toBeUndefined();
    }
    const jsonp = document.paths['/v1/shops.jsonp'].get;
    expect(jsonp.parameters.find((p: Json) => p.name === 'callback')).toMatchObject({ required: true });
    expect(Object.keys(jsonp.responses['200'].content)).toEqual(['text/javascript']);
    expect(jsonp.security).toContainEqual({ accessToken: [] });
  });
});
