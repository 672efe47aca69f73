// Preloaded into a test server process (NODE_OPTIONS=--import …): on SIGUSR2 the main thread spins for
// BUSY_MS milliseconds (default 1500), as a node would under a burst of CPU-bound requests. Worker threads
// keep running. It writes `busy-start` and `busy-end` to stderr so a test knows when the spin began.
process.on('SIGUSR2', () => {
  process.stderr.write('busy-start\n');
  const until = Date.now() + Number(process.env.BUSY_MS ?? 1500);
  while (Date.now() < until) {
    /* spin */
  }
  process.stderr.write('busy-end\n');
});
