// Baseline 4: bare node:http serving the bytes the scenario downloads (E1), read once from BENCH_BODY_FILE and
// answered with BENCH_CONTENT_TYPE on every request, whatever its path or headers (no authentication, no
// routing). Like node-http.ts, it is the fastest Node can serve those bytes on this machine: E1's ratio to it
// is what our routing, authentication and cache lookup cost over Node itself. Started by bench/lib/static-sides.ts
// in its own process, in the same rounds as the scenario (bench/README.md).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
const body = readFileSync(process.env.BENCH_BODY_FILE ?? '');
const contentType = process.env.BENCH_CONTENT_TYPE || 'application/octet-stream';

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  res.end(body);
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
