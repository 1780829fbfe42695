/**
 * An app module built on the SDK: it pushes a folder of theme templates (HTML, CSS, JS) to a shop's production
 * theme, the way a theme developer's CLI does. It holds a user's token (from the authorization code flow) and
 * keeps it alive through the JWT bearer grant, persisting each renewed token.
 */
import {
  authorized,
  type Client,
  createClient,
  type FieldError,
  type OnToken,
  type RetryOptions,
  type Template,
  ValidationError,
} from '@storefront-platform/sdk';

/** A template file on the developer's disk. */
export interface LocalTemplate {
  /** Path inside the theme, e.g. `layout.html` or `css/shop.css`. */
  file_name: string;
  body: string;
}

/** What a sync did, file by file. */
export interface SyncReport {
  created: string[];
  updated: string[];
  unchanged: string[];
  /** Files the platform refused (422), with its reasons; the other files are synced all the same. */
  rejected: { file_name: string; errors: readonly FieldError[] }[];
}

/** How the app reaches the platform. */
export interface ThemeSyncOptions {
  /** `{base_url}`, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  /** `{auth_url}`, where `/oauth/token` is. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** The user's access token, as last persisted. */
  accessToken: string;
  /** Persists a renewed token: the one it replaces is revoked. */
  onToken: OnToken;
  /** Retries (POSTs with their `Idempotency-Key`) on 5xx and network errors; the SDK's default otherwise. */
  retry?: RetryOptions | number | false;
}

/** The theme sync of one authorized user. */
export interface ThemeSync {
  /** Makes the production theme of shop `shopId` hold `files` (templates not listed are left alone). */
  sync(shopId: string, files: readonly LocalTemplate[]): Promise<SyncReport>;
}

export function createThemeSync(options: ThemeSyncOptions): ThemeSync {
  const client: Client = createClient({
    baseUrl: options.baseUrl,
    auth: authorized({
      authUrl: options.authUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      accessToken: options.accessToken,
      onToken: options.onToken,
    }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });

  return {
    async sync(shopId, files) {
      const root = await client.root();
      const shop = await root.follow('svc:shop', { id: shopId });
      const theme = await shop.follow('svc:theme');
      const remote = new Map<string, Template>(theme.embedded('templates').map((t) => [t.properties.file_name, t]));
      const report: SyncReport = { created: [], updated: [], unchanged: [], rejected: [] };
      // One at a time: the platform applies a theme's writes in order, and a CLI's output reads best that way too.
      for (const file of files) {
        const existing = remote.get(file.file_name);
        try {
          if (!existing) {
            await theme.follow('svc:create_template', { file_name: file.file_name, body: file.body });
            report.created.push(file.file_name);
          } else if (existing.properties.body === file.body) {
            report.unchanged.push(file.file_name);
          } else {
            // The guard: if someone changed the template since we read the theme, the platform says 422.
            const seen = existing.properties.updated_on;
            await existing.follow('svc:update_template', { body: file.body, last_updated_on: seen });
            report.updated.push(file.file_name);
          }
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          report.rejected.push({ file_name: file.file_name, errors: error.errors });
        }
      }
      return report;
    },
  };
}
