// The explorer page and its start-up script. Swagger UI itself comes from the swagger-ui-dist package's
// own files (explorer.routes.ts); nothing is loaded from another origin, which the page's
// Content-Security-Policy also enforces.

/** One document in the explorer's selector. */
export interface ExplorerDocument {
  name: string;
  /** Same-origin path, context path included. */
  url: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** CSP of the page: scripts, styles, images and requests of this origin only (Swagger UI inlines some styles and data: icons). */
export const EXPLORER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The HTML of the explorer; its configuration travels as JSON data, read by explorer.js (no inline script). */
export function explorerHtml(documents: ExplorerDocument[]): string {
  // `<` escaped so that no document name can close the script element.
  const config = JSON.stringify({ documents }).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>addon-pair API explorer</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="assets/swagger-ui.css">
<link rel="icon" type="image/png" href="assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script type="application/json" id="explorer-config">${config}</script>
<script src="assets/swagger-ui-bundle.js"></script>
<script src="assets/swagger-ui-standalone-preset.js"></script>
<script src="explorer.js"></script>
<noscript>${escapeHtml('The explorer needs JavaScript. The descriptions themselves are plain JSON: ')}${documents
    .map((d) => `<a href="${escapeHtml(d.url)}">${escapeHtml(d.name)}</a>`)
    .join(', ')}</noscript>
</body>
</html>
`;
}

/**
 * Starts Swagger UI with every document in the top bar's selector. "Try it out" sends same-origin requests
 * with what the Authorize dialog holds (Basic, Bearer) or, for the session, the browser's own JSESSIONID
 * cookie. The field editor's document is for administrators only: when a document is loaded, the
 * interceptor adds the Basic or Bearer credentials entered in Authorize, which the page keeps in memory
 * across documents (Swagger UI's own persistence would write a password to local storage).
 */
export const EXPLORER_SCRIPT = `'use strict';
(function () {
  var config = JSON.parse(document.getElementById('explorer-config').textContent);
  // What Authorize holds, by scheme name, in this page's memory only (never in local storage).
  var remembered = {};
  function plainValue(entry) {
    var value = entry && entry.value;
    return value && value.toJS ? value.toJS() : value;
  }
  function credentials() {
    var basic = plainValue(remembered.basic);
    if (basic && basic.username) {
      var pair = basic.username + ':' + (basic.password || '');
      return 'Basic ' + btoa(String.fromCharCode.apply(null, Array.from(new TextEncoder().encode(pair))));
    }
    var token = plainValue(remembered.bearer);
    return token ? 'Bearer ' + token : undefined;
  }
  // Keeps the authorizations when another document is chosen: remembered on Authorize, forgotten on
  // Logout, applied again to every document that loads.
  function RememberAuthorizations() {
    return {
      statePlugins: {
        auth: {
          wrapActions: {
            authorize: function (original) {
              return function (payload) {
                remembered = Object.assign({}, remembered, payload);
                return original(payload);
              };
            },
            logout: function (original) {
              return function (names) {
                (names || []).forEach(function (name) { delete remembered[name]; });
                return original(names);
              };
            }
          }
        },
        spec: {
          wrapActions: {
            updateJsonSpec: function (original, system) {
              return function (spec) {
                var result = original(spec);
                if (Object.keys(remembered).length > 0) system.authActions.authorize(remembered);
                return result;
              };
            }
          }
        }
      }
    };
  }
  window.ui = SwaggerUIBundle({
    urls: config.documents,
    'urls.primaryName': config.documents[0].name,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [RememberAuthorizations],
    layout: 'StandaloneLayout',
    validatorUrl: null,
    persistAuthorization: false,
    withCredentials: true,
    tryItOutEnabled: false,
    // Shows each operation's x-access (who may call it) among its extensions.
    showExtensions: true,
    requestInterceptor: function (req) {
      if (req.loadSpec && !req.headers.Authorization) {
        var value = credentials();
        if (value) req.headers.Authorization = value;
      }
      return req;
    }
  });
})();
`;
