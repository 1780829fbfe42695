/** The app page against a real server: its config comes from the page's server. */
import { type AppConfig, startApp } from './app.js';

const config = (await (await fetch('/config.json')).json()) as AppConfig;
await startApp(config);
