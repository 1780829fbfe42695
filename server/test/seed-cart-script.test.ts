/**
 * The seed theme's `scripts/cart.js`, run in a VM against a minimal DOM: it keeps the cart in localStorage
 * where it may, and still works inside the sandboxed preview, whose opaque origin makes localStorage throw.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { seed } from '../src/seed/index.js';

const script = seed({ products: 1 }).dataset.templates.find((t) => t.file_name === 'scripts/cart.js')!.body;

type Listener = (event: { preventDefault(): void }) => void;

/** A page with one add-to-cart form and one cart badge; `storage` is what `localStorage` gives (or throws). */
function page(storage: () => unknown) {
  const listeners = new Map<string, Listener>();
  const form = {
    fields: { variant: 'v1', quantity: '2' } as Record<string, string>,
    addEventListener: (type: string, listener: Listener) => listeners.set(`form:${type}`, listener),
  };
  const badge = { textContent: '' };
  const document = {
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    querySelectorAll: (selector: string) =>
      selector === '[data-cart-count]' ? [badge] : selector === '[data-add-to-cart]' ? [form] : [],
  };
  class FormData {
    constructor(private readonly of: typeof form) {}
    get(name: string) {
      return this.of.fields[name] ?? null;
    }
  }
  const context = { document, FormData };
  Object.defineProperty(context, 'localStorage', { get: storage });
  runInNewContext(script, context);
  const fire = (key: string) => listeners.get(key)!({ preventDefault() {} });
  return { badge, load: () => fire('DOMContentLoaded'), addToCart: () => fire('form:submit') };
}

describe('the seed cart script', () => {
  it('counts and keeps the cart in localStorage', () => {
    const stored = new Map<string, string>();
    const storage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => stored.set(key, value),
    };
    const first = page(() => storage);
    first.load();
    expect(first.badge.textContent).toBe('0');
    first.addToCart();
    first.addToCart();
    expect(first.badge.textContent).toBe('4');
    const again = page(() => storage);
    again.load();
    expect(again.badge.textContent).toBe('4');
  });

  it('works for the page’s lifetime where localStorage throws (the sandboxed preview)', () => {
    const sandboxed = page(() => {
      throw new Error('SecurityError: The document is sandboxed and lacks the allow-same-origin flag.');
    });
    expect(() => sandboxed.load()).not.toThrow();
    expect(sandboxed.badge.textContent).toBe('0');
    sandboxed.addToCart();
    sandboxed.addToCart();
    expect(sandboxed.badge.textContent).toBe('4');
  });

  it('starts empty over a stored value that is not a cart', () => {
    const view = page(() => ({ getItem: () => '{not json', setItem: () => {} }));
    view.load();
    expect(view.badge.textContent).toBe('0');
  });
});
