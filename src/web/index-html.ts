const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The one page of the interface. Assets are addressed under the context path; the client reads that path
 * from `data-context-path` to build its REST URLs. `data-signed-in` tells it whether the request carried a
 * live session, so a signed-out visitor gets the sign-in form without a request that would answer 401. No inline script (the Content-Security-Policy forbids it),
 * and an empty icon so the browser does not ask for /favicon.ico. `data-lockout-minutes` lets the sign-in form say
 * how long a lock lasts (the sign-in answer's wording stays the host's).
 */
export function renderIndexHtml(contextPath: string, signedIn: boolean, lockoutMinutes = 0): string {
  const cp = escapeAttr(contextPath);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>addon-pair</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${cp}/web/app.css">
<script type="module" src="${cp}/web/app.js"></script>
</head>
<body data-context-path="${cp}" data-lockout-minutes="${Math.max(0, Math.trunc(lockoutMinutes))}"${signedIn ? ' data-signed-in="true"' : ''}>
<div id="app"></div>
</body>
</html>
`;
}
