import type { StorefrontError } from '@storefront-platform/sdk';

/** An error as the SDK types it: its message, which names the request and status (never a token). */
export function ErrorNote({ error }: { error: StorefrontError | Error }) {
  return (
    <p role="alert" className="error">
      Something went wrong: {error.message}
    </p>
  );
}
