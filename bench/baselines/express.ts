// Baseline 2: an empty Express 5 route, i.e. the floor cost of the framework the
// app is built on. Ratios against it show how much our own middleware costs.
import express from 'express';

const port = Number(process.env.PORT);
const app = express();
app.get('/', (_req, res) => {
  res.send('ok');
});
const server = app.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
