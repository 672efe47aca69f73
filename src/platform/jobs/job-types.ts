import type { Knex } from 'knex';
import type { Logger } from '../log/logger.ts';

export type JobStatus = 'SCHEDULED' | 'RUNNING' | 'SUCCESS' | 'FAILED';
export type JobOutcome = 'SUCCESS' | 'FAILED';

/** A row of `jobs`: the current state of one job. */
export interface JobRow {
  name: string;
  status: JobStatus;
  scheduled_time: Date | null;
  started_time: Date | null;
  finished_time: Date | null;
  requested_by: string | null;
  node: string | null;
  lease_expires_at: Date | null;
  ticket: number;
  last_tick: number | null;
  scheduled_tick: number | null;
  message: string | null;
  runs: number;
}

/** What a job's code gets while it runs on this node. */
export interface JobContext {
  /** Aborted when the node stops (SIGTERM) or the claim was lost (force-fail, lease expired). */
  signal: AbortSignal;
  node: string;
  log: Logger;
  /** Whoever asked for this run: a user name, or `system` for a scheduled run. */
  requestedBy: string;
  /**
   * A transaction that first checks that this run still holds its claim (the fencing ticket), so a node
   * that lost its claim never writes. Jobs do all their writes through it.
   */
  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

export interface JobDefinition {
  name: string;
  /** The work. A returned string is the success message; a throw fails the run with the error's message. */
  run(ctx: JobContext): Promise<string | void>;
  /**
   * Present for scheduled jobs: every node's timer asks on each tick whether the job should run, and one
   * node of the cluster schedules it for that tick.
   */
  schedule?: { enabled(knex: Knex): Promise<boolean> };
}

/**
 * Writes that must commit with a job's state change (the field editor's event log): called inside the
 * transaction that changes the job's row, so the record and the change share fate.
 */
export interface JobJournal {
  scheduled(trx: Knex.Transaction, job: JobRow, by: string): Promise<void>;
  finished(trx: Knex.Transaction, job: JobRow, outcome: JobOutcome, message: string | null): Promise<void>;
  forceFailed(trx: Knex.Transaction, jobs: (JobRow & { previous_status: JobStatus })[], by: string): Promise<void>;
}

/** Called after a run's outcome committed (metrics: job runs by name and outcome, and their duration). */
export type RunObserver = (name: string, outcome: JobOutcome, seconds: number) => void;
