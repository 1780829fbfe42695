/** Starts the shop: its config, the offline mock when asked for, then the React app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import type { ShopConfig } from './config.js';
import './app.css';

const config = (await (await fetch('/config.json')).json()) as ShopConfig;
if (config.offline) await (await import('./offline.js')).startOffline(config);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App config={config} />
  </StrictMode>,
);
