/**
 * The API reference page at `GET /docs` (ADR 0021): Swagger UI (swagger-ui-dist) renders
 * `/openapi.json`, every file served by this install. The policy below lets the page load nothing
 * from elsewhere: no CDN, no fonts, no online validator; only its own scripts and stylesheet, the
 * document (`connect-src 'self'`, which "Try it out" calls too), and the `data:` images the
 * stylesheet embeds (icons; a `data:` URL is no request).
 */
export const API_REFERENCE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Where the page's files are served: `/docs/<name>`. */
export const API_REFERENCE_ASSET_PREFIX = '/docs/';

/** swagger-ui-dist's files the page uses, by the name it serves them under. */
export const VENDOR_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/**
 * The page's own start script (no inline script: the policy forbids them). `validatorUrl: null`
 * keeps Swagger UI from asking the online validator for a badge; the layout without the standalone
 * preset has no top bar to load another document from.
 */
export const START_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
  });
});
`;

/** The page: the description (with the two-call quick start) on top, then every operation by service. */
export const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Herald API reference</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui"><noscript>The reference needs JavaScript; the document itself is at <a href="/openapi.json">/openapi.json</a>.</noscript></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/start.js"></script>
  </body>
</html>
`;
