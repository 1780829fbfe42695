// @vitest-environment happy-dom
/**
 * Server rendering: entities read on the server are dehydrated to JSON, rendered to HTML, and hydrated in the browser
 * as entities of the browser's client, without a request; their links and their ETags still work there.
 */
import {
  createStorefrontClient,
  dehydrateStorefront,
  StorefrontHydrate,
  StorefrontProvider,
  storefrontQuery,
  useAction,
  useFollow,
  usePages,
  useResource,
  useRoot,
} from '@storefront-platform/react';
import { bearer, Entity, PreconditionFailedError, type Shop, type Template } from '@storefront-platform/sdk';
import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { mockedApi } from './support/mocked-api.js';

const api = mockedApi();

function Page({ onTemplate }: { onTemplate?: (template: Template) => void }) {
  const root = useRoot();
  const shop = useFollow(root.data, 'svc:shop', { id: 1 });
  const theme = useFollow(shop.data, 'svc:theme');
  const template = useResource(theme.data?.embedded('templates')[0]);
  const products = usePages(shop.data, 'svc:products', { per_page: 3 });
  const save = useAction(template.data, 'svc:update_template', { ifMatch: true });
  if (template.data) onTemplate?.(template.data);
  return (
    <main>
      <h1>{root.data?.properties.user_name}</h1>
      <p data-testid="theme">{theme.data?.properties.title}</p>
      <p data-testid="products">{products.items.length}</p>
      <button type="button" onClick={() => save.mutate({ body: 'mine' })}>
        Save
      </button>
      <p data-testid="error">{save.error instanceof PreconditionFailedError ? 'conflict' : ''}</p>
    </main>
  );
}

describe('dehydrateStorefront / StorefrontHydrate', () => {
  it('renders the server’s data to HTML and hydrates it as entities, with no request, their links and ETags working', async () => {
    const { accessToken } = await api.mock.issueToken({ scope: 'admin' });
    // The server: read what the page needs, then dehydrate.
    const server = {
      client: createStorefrontClient({ baseUrl: api.mock.baseUrl, auth: bearer(accessToken) }),
      queryClient: new QueryClient(),
    };
    const { unmount } = render(
      <StorefrontProvider client={server.client} queryClient={server.queryClient}>
        <Page />
      </StorefrontProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('products').textContent).toBe('3'));
    unmount();
    // What goes into the page: JSON.
    const state = JSON.parse(JSON.stringify(dehydrateStorefront(server.queryClient)));
    api.requests.length = 0;

    // The browser: another client and QueryClient, given the state.
    const browser = () => ({
      client: createStorefrontClient({ baseUrl: api.mock.baseUrl, auth: bearer(accessToken) }),
      queryClient: new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } }),
    });
    const tree = (b: ReturnType<typeof browser>, onTemplate?: (template: Template) => void) => (
      <StorefrontProvider client={b.client} queryClient={b.queryClient}>
        <StorefrontHydrate state={state}>
          <Page onTemplate={onTemplate} />
        </StorefrontHydrate>
      </StorefrontProvider>
    );
    const html = renderToString(tree(browser()));
    const theme = api.mock.store.where('themes', 'shop_id', '1').find((t) => t.production)!;
    expect(html).toContain('<h1>Dana Demo</h1>');
    expect(html).toContain(theme.title);
    expect(html).toContain('<p data-testid="products">3</p>');

    let template: Template | undefined;
    render(
      tree(browser(), (t) => {
        template = t;
      }),
    );
    expect(screen.getByTestId('products').textContent).toBe('3');
    expect(template).toBeInstanceOf(Entity);
    expect(api.requests).toEqual([]);

    // Its ETag came along: a change made since makes the guarded write a 412 (without it, the SDK would refuse to send).
    await api.mock.store.write((tx) =>
      tx.update('templates', String(template!.properties.id), { body: 'theirs', updated_on: new Date().toISOString() }),
    );
    await act(async () => screen.getByRole('button', { name: 'Save' }).click());
    await waitFor(() => expect(screen.getByTestId('error').textContent).toBe('conflict'));
    expect(api.requests.filter((r) => r.startsWith('PUT'))).toHaveLength(1);
  });

  it('a write from a hydrated page refetches what it touched (the theme embedding the template, the root), as without hydration', async () => {
    const { accessToken } = await api.mock.issueToken({ scope: 'admin' });
    const options = () => ({ baseUrl: api.mock.baseUrl, auth: bearer(accessToken), retry: 0 });
    // The server: a loader's prefetches, then the state.
    const server = { client: createStorefrontClient(options()), queryClient: new QueryClient() };
    const root = await server.queryClient.ensureQueryData(storefrontQuery(server.client));
    const shop = await server.queryClient.ensureQueryData(storefrontQuery(server.client, root, 'svc:shop', { id: 1 }));
    const theme = await server.queryClient.ensureQueryData(storefrontQuery(server.client, shop, 'svc:theme'));
    await server.queryClient.prefetchQuery(storefrontQuery(server.client, theme.embedded('templates')[0]!));
    const state = JSON.parse(JSON.stringify(dehydrateStorefront(server.queryClient)));
    api.requests.length = 0;

    // The browser: data fresh for a minute, so that only the write's invalidation can make it read again.
    const client = createStorefrontClient(options());
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
    const revalidated: string[] = [];
    client.on('cache:revalidated', ({ url }) => revalidated.push(new URL(url).pathname));
    function Editor({ shop }: { shop: Shop }) {
      const theme = useFollow(shop, 'svc:theme');
      const template = useResource(theme.data?.embedded('templates')[0]);
      const save = useAction(template.data, 'svc:update_template', { ifMatch: true });
      return (
        <>
          <p data-testid="embedded">{theme.data?.embedded('templates')[0]?.properties.body}</p>
          <p data-testid="template">{template.data?.properties.body}</p>
          <button type="button" onClick={() => save.mutate({ body: '<p>hydrated</p>' })}>
            Save
          </button>
        </>
      );
    }
    function Hydrated() {
      const root = useRoot();
      const shop = useFollow(root.data, 'svc:shop', { id: 1 });
      return <>{shop.data && <Editor shop={shop.data} />}</>;
    }
    render(
      <StorefrontProvider client={client} queryClient={queryClient}>
        <StorefrontHydrate state={state}>
          <Hydrated />
        </StorefrontHydrate>
      </StorefrontProvider>,
    );
    expect(screen.getByTestId('template').textContent).not.toBe('<p>hydrated</p>');
    expect(api.requests).toEqual([]);

    await act(async () => screen.getByRole('button', { name: 'Save' }).click());
    await waitFor(() => expect(screen.getByTestId('embedded').textContent).toBe('<p>hydrated</p>'));
    expect(screen.getByTestId('template').textContent).toBe('<p>hydrated</p>');
    const template = theme.embedded('templates')[0]!.properties;
    const templatePath = `/v1/themes/${theme.properties.id}/templates/${template.id}`;
    await waitFor(() =>
      expect([...api.requests].sort()).toEqual(
        ['GET /v1', 'GET /v1/shops/1/theme.json', `GET ${templatePath}`, `PUT ${templatePath}`].sort(),
      ),
    );
    // What was not written is still the hydrated copy, revalidated with its ETag: a 304, no body.
    api.requests.length = 0;
    await act(() => queryClient.refetchQueries({ queryKey: storefrontQuery(client, 'shops/1.json').queryKey }));
    expect(api.requests).toEqual(['GET /v1/shops/1.json']);
    expect(revalidated).toEqual(['/v1/shops/1.json']);
  });
});
