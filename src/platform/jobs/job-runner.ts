import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../log/logger.ts';
import type { JobContext, JobDefinition, JobJournal, JobOutcome, JobRow, JobStatus, RunObserver } from './job-types.ts';
import * as repo from './jobs.repository.ts';

export interface JobRunnerOptions {
  /** How often each node looks for scheduled jobs, expired leases and due ticks. */
  pollMs: number;
  /** How long a claim lasts without renewal; a running job renews it every third of it. */
  leaseMs: number;
  /** Length of a schedule tick (scheduled jobs run once per tick across the cluster). */
  tickMs: number;
  /** Tests only (platform/test-knobs.ts): a claimed run waits this long before its work starts, so tests can see it RUNNING. */
  holdMs?: number;
}

/** Thrown inside a run that lost its claim (force-failed, lease expired) or whose node is stopping. */
export class ClaimLostError extends Error {}

const noJournal: JobJournal = { scheduled: async () => {}, finished: async () => {}, forceFailed: async () => {} };

interface ActiveRun {
  abort: AbortController;
  done: Promise<void>;
}

/**
 * The cluster-safe job runner. Every node runs one: requests only mark a job SCHEDULED in the database
 * (never run inside a request); each node's timer claims scheduled jobs with one conditional update, so a
 * job runs on one node at a time and never concurrently with itself. A running job renews its lease; when a
 * node dies, another node sees the lease expire and sets the job FAILED, after which it may be scheduled
 * again. `stop()` (SIGTERM) aborts this node's runs, records them as FAILED and waits for them to end.
 */
export class JobRunner {
  readonly node = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly observers: RunObserver[] = [];
  private readonly active = new Map<string, ActiveRun>();
  private journal: JobJournal = noJournal;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private again = false;
  private started = false;

  constructor(
    private readonly knex: Knex,
    private readonly log: Logger,
    private readonly opts: JobRunnerOptions,
  ) {}

  register(definition: JobDefinition): void {
    this.definitions.set(definition.name, definition);
  }

  /** The records to write with each job state change (one journal; the field editor's event log). */
  useJournal(journal: JobJournal): void {
    this.journal = journal;
  }

  /** Observers of finished runs (metrics); called after the outcome committed, never inside a transaction. */
  onRunFinished(observer: RunObserver): () => void {
    this.observers.push(observer);
    return () => this.observers.splice(this.observers.indexOf(observer), 1);
  }

  get jobNames(): string[] {
    return [...this.definitions.keys()].sort();
  }

  /**
   * Schedules a run on behalf of `by`. A job already scheduled or running is left alone (`scheduled:
   * false`). The run starts in the background on whichever node claims it first.
   */
  async request(name: string, by: string): Promise<{ job: JobRow; scheduled: boolean }> {
    if (!this.definitions.has(name)) throw new Error(`unknown job ${name}`);
    const result = await this.knex.transaction(async (trx) => {
      const row = await repo.requestRun(trx, name, by, null);
      if (row) await this.journal.scheduled(trx, row, by);
      return { job: row ?? (await repo.findJob(trx, name))!, scheduled: row !== undefined };
    });
    if (result.scheduled) this.wake();
    return result;
  }

  /** MaintenanceActionForceFailRunningAndScheduledJobs: database only; live runs notice at their next renewal. */
  async forceFail(by: string): Promise<(JobRow & { previous_status: JobStatus })[]> {
    return this.knex.transaction(async (trx) => {
      const rows = await repo.forceFailAll(trx, `force-failed by ${by}`);
      if (rows.length > 0) await this.journal.forceFailed(trx, rows, by);
      return rows;
    });
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.wake();
  }

  /** Stops claiming, aborts this node's runs (they end FAILED) and waits for them. */
  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling;
    for (const run of this.active.values()) run.abort.abort(new ClaimLostError('the node is shutting down'));
    await Promise.all([...this.active.values()].map((r) => r.done));
  }

  /** Polls soon (after a request on this node, so the run does not wait for the next timer). */
  wake(): void {
    if (!this.started) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), 0);
    this.timer.unref();
  }

  private poll(): void {
    this.polling = this.pollOnce()
      .catch((err: unknown) => this.log.warn({ err }, 'job poll failed; retrying at the next poll'))
      .finally(() => {
        this.polling = undefined;
        if (!this.started) return;
        const wait = this.again ? 0 : this.opts.pollMs;
        this.again = false;
        this.timer = setTimeout(() => this.poll(), wait);
        this.timer.unref();
      });
  }

  private async pollOnce(): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const expired = await repo.expireLeases(trx);
      for (const row of expired) {
        this.log.warn({ job: row.name, node: row.node }, 'job lease expired; set to FAILED');
        await this.journal.finished(trx, row, 'FAILED', row.message);
      }
    });
    await this.scheduleDueTicks();
    const names = this.jobNames.filter((n) => !this.active.has(n));
    while (this.started && names.length > 0) {
      const row = await this.knex.transaction((trx) => repo.claimNext(trx, names, this.node, this.opts.leaseMs));
      if (!row) break;
      names.splice(names.indexOf(row.name), 1);
      this.execute(row);
    }
  }

  /** Each scheduled job whose schedule is on is requested for the current tick; one node per tick wins. */
  private async scheduleDueTicks(): Promise<void> {
    const scheduled = [...this.definitions.values()].filter((d) => d.schedule);
    if (scheduled.length === 0) return;
    const tick = await repo.currentTick(this.knex, this.opts.tickMs);
    for (const def of scheduled) {
      if (!(await def.schedule!.enabled(this.knex))) continue;
      await this.knex.transaction(async (trx) => {
        const row = await repo.requestRun(trx, def.name, 'system', tick);
        if (row) await this.journal.scheduled(trx, row, 'system');
      });
    }
  }

  /** Runs a claimed job in the background: lease renewal, the work, the fenced outcome, the observers. */
  private execute(row: JobRow): void {
    const def = this.definitions.get(row.name)!;
    const abort = new AbortController();
    const started = process.hrtime.bigint();
    const { name, ticket } = row;
    const renew = setInterval(() => {
      repo.renewLease(this.knex, name, ticket, this.opts.leaseMs).then(
        (held) => {
          if (!held) abort.abort(new ClaimLostError('the claim was lost (force-failed or lease expired)'));
        },
        (err: unknown) => this.log.warn({ err, job: name }, 'job lease renewal failed'),
      );
    }, Math.max(10, Math.floor(this.opts.leaseMs / 3)));
    renew.unref();

    const ctx: JobContext = {
      signal: abort.signal,
      node: this.node,
      log: this.log.child({ job: name }),
      requestedBy: row.requested_by ?? 'system',
      transaction: (fn) =>
        this.knex.transaction(async (trx) => {
          abort.signal.throwIfAborted();
          if (!(await repo.holdsClaim(trx, name, ticket))) throw new ClaimLostError('the claim was lost (force-failed or lease expired)');
          return fn(trx);
        }),
    };

    const done = (async () => {
      let outcome: JobOutcome = 'SUCCESS';
      let message: string | null = null;
      try {
        if (this.opts.holdMs) await sleep(this.opts.holdMs, abort.signal);
        message = (await def.run(ctx)) ?? null;
        abort.signal.throwIfAborted();
      } catch (err) {
        outcome = 'FAILED';
        const reason = abort.signal.aborted ? abort.signal.reason : err;
        message = reason instanceof ClaimLostError ? `interrupted: ${reason.message}` : String((reason as Error)?.message ?? reason);
        if (!(reason instanceof ClaimLostError)) this.log.error({ err, job: name }, 'job failed');
      } finally {
        clearInterval(renew);
      }
      try {
        const recorded = await this.knex.transaction(async (trx) => {
          const finished = await repo.finishRun(trx, name, ticket, outcome, message);
          if (finished) await this.journal.finished(trx, finished, outcome, message);
          return finished;
        });
        if (recorded) {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          for (const observe of this.observers) {
            try {
              observe(name, outcome, seconds);
            } catch (err) {
              this.log.warn({ err }, 'job observer failed');
            }
          }
        }
      } catch (err) {
        this.log.error({ err, job: name }, 'could not record the outcome of a job; its lease will expire');
      } finally {
        this.active.delete(name);
        this.wake();
      }
    })();
    this.active.set(name, { abort, done });
    // Claimed while stop() was waiting for the poll: end it at once, recorded as interrupted.
    if (!this.started) abort.abort(new ClaimLostError('the node is shutting down'));
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
