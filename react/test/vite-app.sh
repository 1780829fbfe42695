#!/usr/bin/env bash
# The packed @storefront-platform/react in a fresh Vite app, as a React developer would start one: React 19,
# TanStack Query 5, Vite with @vitejs/plugin-react and the template's strict tsconfig; the app uses the hooks, then
# type-checks (tsc, strict) and builds (vite build). Installs from the tarballs and npm's cache (no registry needed
# when the cache holds the packages, as after the workspace's own install).
#
#   bash react/test/vite-app.sh DIR    DIR holds the packed tarballs (storefront-platform-sdk-*.tgz, -react-*.tgz)
set -euo pipefail
packs=$(cd "${1:?usage: vite-app.sh DIR-OF-TARBALLS}" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
version() { node -p "require('$repo/$1/package.json').version"; }

cd "$scratch"
cat > package.json <<JSON
{ "name": "fresh-vite-app", "private": true, "type": "module" }
JSON
# The versions the workspace tests with, so that npm's cache has them; one install, the tools with the app's packages.
npm install --prefer-offline --no-audit --no-fund --loglevel=error \
  "$packs"/storefront-platform-sdk-*.tgz "$packs"/storefront-platform-react-*.tgz \
  "react@$(version node_modules/react)" "react-dom@$(version node_modules/react-dom)" \
  "@tanstack/react-query@$(version node_modules/@tanstack/react-query)" \
  "vite@$(version node_modules/vite)" "@vitejs/plugin-react@$(version react/node_modules/@vitejs/plugin-react)" \
  "typescript@$(version node_modules/typescript)" "@types/react@$(version node_modules/@types/react)" \
  "@types/react-dom@$(version node_modules/@types/react-dom)" >/dev/null

# Vite's react-ts template: its tsconfig.app.json, its vite.config.ts, an index.html and src/main.tsx.
cat > tsconfig.json <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "lib": ["ES2022", "DOM", "DOM.Iterable"], "module": "ESNext", "types": ["vite/client"],
    "skipLibCheck": false, "moduleResolution": "bundler", "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true, "moduleDetection": "force", "noEmit": true, "jsx": "react-jsx",
    "strict": true, "noUnusedLocals": true, "noUnusedParameters": true, "noFallthroughCasesInSwitch": true,
    "noUncheckedSideEffectImports": true
  },
  "include": ["src"]
}
JSON
cat > vite.config.ts <<'TS'
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [react()] });
TS
cat > index.html <<'HTML'
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fresh</title></head>
<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>
HTML
mkdir src
cat > src/main.tsx <<'TSX'
import {
  RequireSignIn,
  StorefrontProvider,
  useAction,
  useFollow,
  usePages,
  useRoot,
  useSuspenseFollow,
} from '@storefront-platform/react';
import { PreconditionFailedError, type Shop, type Template } from '@storefront-platform/sdk';
import { QueryClient } from '@tanstack/react-query';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';

function Products({ shop }: { shop: Shop }) {
  const list = usePages(shop, 'svc:products', { q: 'jacket', per_page: 20 });
  const total: number | undefined = list.data?.pages[0]?.properties.total_items;
  return (
    <ul data-total={total}>
      {list.items.map((p) => (
        <li key={p.properties.id}>{p.properties.title}</li>
      ))}
      {list.hasNextPage && <button onClick={() => void list.fetchNextPage()}>More</button>}
    </ul>
  );
}

function Editor({ template }: { template: Template }) {
  const save = useAction(template, 'svc:update_template', { ifMatch: true });
  const conflict = save.error instanceof PreconditionFailedError;
  return <button onClick={() => save.mutate({ body: '<h1>Hi</h1>' })}>{conflict ? 'Conflict' : 'Save'}</button>;
}

function Theme({ shop }: { shop: Shop }) {
  const theme = useSuspenseFollow(shop, 'svc:theme');
  const first = theme.data.embedded('templates')[0];
  return first ? <Editor template={first} /> : null;
}

function Home() {
  const root = useRoot();
  const shop = useFollow(root.data, 'svc:shop', { id: 1 });
  if (!shop.data) return <p>{root.error?.message ?? 'Loading…'}</p>;
  return (
    <>
      <h1>{root.data?.properties.user_name}</h1>
      <Products shop={shop.data} />
      <Suspense fallback="…">
        <Theme shop={shop.data} />
      </Suspense>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StorefrontProvider
      queryClient={new QueryClient()}
      options={{ baseUrl: 'http://localhost:4000/v1' }}
      signIn={{ authUrl: 'http://localhost:4000', clientId: 'app', scope: 'admin' }}
    >
      <RequireSignIn>
        <Home />
      </RequireSignIn>
    </StorefrontProvider>
  </StrictMode>,
);
TSX
npx tsc -p tsconfig.json
echo "fresh Vite app: @storefront-platform/react from its tarball type-checks under strict (React 19, TanStack Query 5)"
npx vite build --logLevel error
ls dist/assets/*.js >/dev/null
echo "fresh Vite app: vite build with @vitejs/plugin-react bundles it"
