// @vitest-environment happy-dom
/**
 * useAction over the MSW handlers: after a PUT the queries whose responses the SDK's cache dropped refetch once each
 * and the others not at all (requests counted); the lost-update guards' 412 and 422 arrive typed; an optimistic
 * update is put back when the write fails.
 */
import { useAction, useFollow, usePages, useResource, useRoot } from '@storefront-platform/react';
import { Entity, PreconditionFailedError, ValidationError } from '@storefront-platform/sdk';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { mockedApi } from './support/mocked-api.js';

const api = mockedApi();

interface EditorProps {
  ifMatch?: boolean;
  optimistic?: boolean;
  /** What the Save button sends besides the body. */
  extra?: { last_updated_on?: string };
}

/** A shop's theme, its first template read in detail with an editor, and the shop's products: what an admin app shows. */
function Admin({ ifMatch, optimistic, extra }: EditorProps) {
  const root = useRoot();
  const shop = useFollow(root.data, 'svc:shop', { id: 1 });
  const theme = useFollow(shop.data, 'svc:theme');
  const template = useResource(theme.data?.embedded('templates')[0]);
  const products = usePages(shop.data, 'svc:products', { per_page: 5 });
  const save = useAction(template.data, 'svc:update_template', {
    ifMatch,
    optimistic: optimistic ? (entity, vars) => ({ ...entity.toJSON(), ...(vars as object) }) : undefined,
  });
  if (!template.data || !products.data) return <p>Loading…</p>;
  const embedded = theme.data?.embedded('templates')[0]?.properties;
  return (
    <>
      <p data-testid="body">{template.data.properties.body}</p>
      <p data-testid="in-theme">{embedded?.updated_on}</p>
      <p data-testid="products">{products.items.length}</p>
      <button type="button" onClick={() => save.mutate({ body: '<h1>Saved</h1>', ...extra })}>
        Save
      </button>
      <p data-testid="error">
        {save.error instanceof PreconditionFailedError
          ? `conflict ${save.error.status}`
          : save.error instanceof ValidationError
            ? `invalid ${save.error.errors.map((e) => e.field).join(',')}`
            : (save.error?.message ?? '')}
      </p>
      <p data-testid="saved">{save.isSuccess ? 'saved' : ''}</p>
    </>
  );
}

async function ready(props: EditorProps = {}) {
  const session = await api.session();
  render(<Admin {...props} />, { wrapper: session.wrapper });
  // The file's first render pays for the cold start (MSW, happy-dom, the modules): about 1 s on a loaded CI machine.
  await waitFor(() => expect(screen.getByTestId('products').textContent).toBe('5'), { timeout: 3000 });
  const theme = api.mock.store.where('themes', 'shop_id', '1').find((t) => t.production)!;
  // The template the page shows: the one it read in detail.
  const id = api.requests.map((r) => /\/templates\/(\d+)/.exec(r)?.[1]).find(Boolean);
  const template = api.mock.store.get('templates', id!)!;
  return { ...session, theme, template };
}

describe('useAction', () => {
  it('after a PUT, refetches once each query whose response the SDK’s cache dropped, and no other', async () => {
    const { template, theme } = await ready({ ifMatch: true });
    const before = [...api.requests];
    // What the page read: the root, the shop, its theme, the template, a page of products.
    const themeGet = 'GET /v1/shops/1/theme.json';
    const templateGet = `GET /v1/themes/${theme.id}/templates/${template.id}`;
    const productsGet = 'GET /v1/products.json?shop_ids=1&per_page=5';
    expect([...before].sort()).toEqual(['GET /v1', 'GET /v1/shops/1.json', productsGet, themeGet, templateGet].sort());
    api.requests.length = 0;
    const oldUpdatedOn = screen.getByTestId('in-theme').textContent;

    await act(async () => screen.getByRole('button', { name: 'Save' }).click());
    await waitFor(() => expect(screen.getByTestId('body').textContent).toBe('<h1>Saved</h1>'));
    // The theme embeds the template: it is shown again, refetched.
    await waitFor(() => expect(screen.getByTestId('in-theme').textContent).not.toBe(oldUpdatedOn));
    // Anything more would have been sent by now: the refetches start together.
    await new Promise((settled) => setTimeout(settled, 50));

    expect(api.requests.filter((r) => r.startsWith('PUT '))).toEqual([templateGet.replace('GET', 'PUT')]);
    expect(api.count('GET', templateGet.slice(4))).toBe(1);
    expect(api.count('GET', themeGet.slice(4))).toBe(1);
    // The root is above every resource (the SDK drops `/v1` with any write below it); the shop and its products are
    // neither the template nor showing it.
    expect(api.count('GET', '/v1')).toBe(1);
    expect(api.count('GET', '/v1/shops/1.json')).toBe(0);
    expect(api.count('GET', productsGet.slice(4))).toBe(0);
    expect(api.requests).toHaveLength(4);
    expect(screen.getByTestId('saved').textContent).toBe('saved');
  });

  it('fails with a typed 412 when the template changed since it was read (ifMatch), taking the optimistic body back for the server’s', async () => {
    const { template } = await ready({ ifMatch: true, optimistic: true });
    const shown = screen.getByTestId('body').textContent;
    await api.mock.store.write((tx) =>
      tx.update('templates', template.id, { body: '<p>theirs</p>', updated_on: new Date().toISOString() }),
    );
    // The PUT held long enough to see the optimistic body before the 412 comes back.
    api.server.use(api.mock.slowResponse(300, { method: 'PUT' }));
    screen.getByRole('button', { name: 'Save' }).click();
    // The optimistic body shows at once.
    await waitFor(() => expect(screen.getByTestId('body').textContent).toBe('<h1>Saved</h1>'));
    await waitFor(() => expect(screen.getByTestId('error').textContent).toBe('conflict 412'));
    // The optimistic body is taken back, then the entity refetched: the page shows what the server holds now.
    expect(screen.getByTestId('body').textContent).not.toBe('<h1>Saved</h1>');
    expect(shown).not.toBe('<p>theirs</p>');
    await waitFor(() => expect(screen.getByTestId('body').textContent).toBe('<p>theirs</p>'));
    expect(api.mock.store.get('templates', template.id)!.body).toBe('<p>theirs</p>');
  });

  it('after a 412, holds the server’s template: the next guarded save goes through, with no code of the app', async () => {
    const { template, theme, queryClient } = await ready({ ifMatch: true });
    await api.mock.store.write((tx) =>
      tx.update('templates', template.id, { body: '<p>theirs</p>', updated_on: new Date().toISOString() }),
    );
    screen.getByRole('button', { name: 'Save' }).click();
    await waitFor(() => expect(screen.getByTestId('error').textContent).toBe('conflict 412'));
    expect(api.mock.store.get('templates', template.id)!.body).toBe('<p>theirs</p>');
    // The entity the write was on is read again: the query's cache holds the server's copy, with its ETag.
    await waitFor(() => expect(screen.getByTestId('body').textContent).toBe('<p>theirs</p>'));
    const cached = queryClient
      .getQueryCache()
      .findAll()
      .map((query) => query.state.data)
      .find((data) => data instanceof Entity && data.properties.file_name === template.file_name) as Entity;
    expect(cached.properties).toMatchObject({ body: '<p>theirs</p>' });
    expect(api.count('GET', `/v1/themes/${theme.id}/templates/${template.id}`)).toBe(2);
    // The theme embeds the template: it shows the server's copy too, read again once.
    const theirs = api.mock.store.get('templates', template.id)!.updated_on;
    await waitFor(() => expect(screen.getByTestId('in-theme').textContent).toBe(theirs));
    expect(api.count('GET', '/v1/shops/1/theme.json')).toBe(2);

    screen.getByRole('button', { name: 'Save' }).click();
    await waitFor(() => expect(screen.getByTestId('saved').textContent).toBe('saved'));
    expect(screen.getByTestId('error').textContent).toBe('');
    expect(api.mock.store.get('templates', template.id)!.body).toBe('<h1>Saved</h1>');
  });

  it('sends a guarded save made before the one before it is answered with the ETag that one made: both go through', async () => {
    const { template } = await ready({ ifMatch: true, optimistic: true });
    api.server.use(api.mock.slowResponse(300, { method: 'PUT' }));
    screen.getByRole('button', { name: 'Save' }).click();
    await waitFor(() => expect(screen.getByTestId('body').textContent).toBe('<h1>Saved</h1>'));
    // Again, from the optimistic entity, before the first write is answered: not a conflict with the user's own save.
    screen.getByRole('button', { name: 'Save' }).click();
    await waitFor(() => expect(api.requests.filter((r) => r.startsWith('PUT '))).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('saved').textContent).toBe('saved'));
    expect(screen.getByTestId('error').textContent).toBe('');
    expect(api.mock.store.get('templates', template.id)!.body).toBe('<h1>Saved</h1>');
  });

  it('serialises quick guarded saves of one entity (mutateAsync twice): the second guarded by the first’s ETag', async () => {
    const { wrapper } = await api.session();
    const { result } = renderHook(
      () => {
        const template = useFirstTemplate();
        return { template, save: useAction(template.data, 'svc:update_template', { ifMatch: true }) };
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.template.data).toBeDefined());
    const id = String(result.current.template.data!.properties.id);
    const { save } = result.current;
    const outcomes = await act(() =>
      Promise.allSettled([save.mutateAsync({ body: '<p>one</p>' }), save.mutateAsync({ body: '<p>two</p>' })]),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(api.mock.store.get('templates', id)!.body).toBe('<p>two</p>');
    // Someone else's change still breaks the chain: the next save from the same copy is a 412.
    await api.mock.store.write((tx) => tx.update('templates', id, { body: '<p>theirs</p>' }));
    await expect(act(() => save.mutateAsync({ body: '<p>three</p>' }))).rejects.toBeInstanceOf(PreconditionFailedError);
  });

  it('chains a hook’s own saves only: another component saving from the copy before is refused with a 412', async () => {
    const { wrapper } = await api.session();
    const { result } = renderHook(
      () => {
        const template = useFirstTemplate();
        // Another component that still shows the first copy it was given.
        const shown = useRef(template.data);
        shown.current ??= template.data;
        return {
          template,
          mine: useAction(template.data, 'svc:update_template', { ifMatch: true }),
          other: useAction(shown.current, 'svc:update_template', { ifMatch: true }),
        };
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.template.data).toBeDefined());
    const id = String(result.current.template.data!.properties.id);
    await act(() => result.current.mine.mutateAsync({ body: '<p>mine</p>' }));
    await expect(act(() => result.current.other.mutateAsync({ body: '<p>other</p>' }))).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    expect(api.mock.store.get('templates', id)!.body).toBe('<p>mine</p>');
  });

  it('fails with a typed 422 on the last_updated_on guard, naming the field', async () => {
    const { template } = await ready({ extra: { last_updated_on: '2001-01-01T00:00:00.000Z' } });
    screen.getByRole('button', { name: 'Save' }).click();
    await waitFor(() => expect(screen.getByTestId('error').textContent).toBe('invalid updated_on'));
    expect(api.mock.store.get('templates', template.id)!.body).not.toBe('<h1>Saved</h1>');
  });
});

/** The first template of shop 1's theme, read through the hooks as a component would. */
function useFirstTemplate() {
  const root = useRoot();
  const shop = useFollow(root.data, 'svc:shop', { id: 1 });
  const theme = useFollow(shop.data, 'svc:theme');
  return useResource(theme.data?.embedded('templates')[0]);
}
