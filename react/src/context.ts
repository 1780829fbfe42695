import { createContext, useContext } from 'react';
import type { StorefrontClient } from './client.js';

/** The client of the nearest `StorefrontProvider`. */
export const ClientContext = createContext<StorefrontClient | undefined>(undefined);

/** The client of the nearest `StorefrontProvider`; throws outside of one. */
export function useClient(): StorefrontClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient: no StorefrontProvider above this component');
  return client;
}
