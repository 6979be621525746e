// Builds the dashboard (apps/dashboard) into <HERALD_DIST or dist>/dashboard, which the gateway serves
// at / (libs/services/gateway/src/edge/dashboard.controller.ts). Prints the gzipped size of the first
// screen's JavaScript (the entry chunk and what it imports statically) and fails past the budget.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));
const FIRST_SCREEN_BUDGET_KB = 350; // issue 43: the first screen's JS, gzipped

/** Sums the gzipped size of the entry chunk and its static imports, once the bundle is written. */
function firstScreenSize() {
  return {
    name: 'herald-first-screen-size',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry);
      const seen = new Set();
      const visit = (name) => {
        if (seen.has(name)) return;
        seen.add(name);
        const chunk = bundle[name];
        for (const dep of chunk.imports) visit(dep);
      };
      visit(entry.fileName);
      const bytes = [...seen].reduce((n, name) => n + gzipSync(bundle[name].code, { level: 9 }).length, 0);
      const kb = (bytes / 1024).toFixed(1);
      console.log(
        `dashboard: first screen JS ${kb} KB gzipped (${seen.size} file(s); budget ${FIRST_SCREEN_BUDGET_KB} KB)`,
      );
      if (bytes > FIRST_SCREEN_BUDGET_KB * 1024)
        this.error(`the first screen's JS (${kb} KB gzipped) exceeds ${FIRST_SCREEN_BUDGET_KB} KB`);
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  logLevel: 'warn',
  publicDir: false,
  resolve: {
    alias: {
      '@herald/sdk': `${repo}libs/sdk/src/index.ts`,
      // the server's template renderer (Liquid, Markdown), for the templates screen's preview (a lazy chunk)
      '@herald/templating/renderer': `${repo}libs/templating/src/template-renderer.ts`,
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: `${repo}${process.env.HERALD_DIST ?? 'dist'}/dashboard`,
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0, // no data: URLs for scripts; the CSP allows only this origin
  },
  plugins: [firstScreenSize()],
});
