// Baseline 1: the fastest thing Node can do on this machine, a bare node:http
// server answering a fixed body. Run as its own process by bench/lib/baselines.ts.
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
const body = Buffer.from('ok');

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
  res.end(body);
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
