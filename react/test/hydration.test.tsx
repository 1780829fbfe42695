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
  useAction,
  useFollow,
  usePages,
  useResource,
  useRoot,
} from '@storefront-platform/react';
import { bearer, Entity, PreconditionFailedError, type Template } from '@storefront-platform/sdk';
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
});
