/**
 * Group commit for writes that queue for one lock. Per key (one option list, say) one group runs at a time
 * in this process: a write that comes while its key's group runs waits here, in memory, instead of on the
 * database's lock row, and the writes that waited meanwhile run together as the next group (one transaction,
 * one lock, one commit). A write that finds its key idle starts at once, alone, so nothing is held back to fill
 * a group: groups grow only as far as writes overlap. (Other processes' writes still queue on the lock row.)
 *
 * `run` receives each group, must settle every job in it (jobs carry their own answers) and resolves once its
 * transactions have ended; it may answer its jobs later (after a publish, say).
 */
export class WriteGroups<J> {
  /** Per key with a group running: the jobs that came since it started (the next group). */
  private readonly waiting = new Map<string, J[]>();

  constructor(
    private readonly run: (jobs: J[]) => Promise<void>,
    /** The most jobs in one group: a long queue is cut into groups of this size, in arrival order. */
    private readonly maxGroup = 32,
  ) {}

  submit(key: string, job: J): void {
    const queue = this.waiting.get(key);
    if (queue) {
      queue.push(job);
      return;
    }
    this.waiting.set(key, []);
    void this.drain(key, [job]);
  }

  /** Runs groups of `key` until nobody waits, then marks the key idle. */
  private async drain(key: string, first: J[]): Promise<void> {
    let jobs = first;
    for (;;) {
      try {
        await this.run(jobs);
      } catch {
        // A failing run is the runner's to answer (it settles its jobs); the queue goes on regardless.
      }
      const queue = this.waiting.get(key) ?? [];
      if (queue.length === 0) {
        this.waiting.delete(key);
        return;
      }
      jobs = queue.splice(0, this.maxGroup);
    }
  }
}
