import type { Knex } from 'knex';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import { pageOfJobs, type JobSortKey } from '../../platform/jobs/jobs.repository.ts';
import type { EventLog } from './event-log.ts';
import { deleteEvents, type EventFilter } from './event-log.repository.ts';
import { EventPages } from './event-log.pages.ts';
import { readTruncateSchedule, writeTruncateSchedule, type TruncateSchedule } from './truncate-schedule.repository.ts';
import { ACTION, JOB_NAMES } from './jobs/job-names.ts';
import { jobEntry, scheduleBody } from './maintenance.presenter.ts';

interface Page {
  startAt: number;
  maxResults: number;
}

const wrapper = <T>(page: Page, total: number, values: T[], started: number) => ({
  maxResults: page.maxResults,
  startAt: page.startAt,
  total,
  processingTimeInMs: Math.round(performance.now() - started),
  values,
});

/**
 * Rules of the maintenance endpoints (M1–M3 and the event-log list). Jobs are only scheduled here; the
 * node's job runner claims and runs them in the background. Actions run at once, each in one transaction
 * with its event-log entry.
 */
export class MaintenanceService {
  /** This node's memory of served event-log pages (keyset continuations, totals; see event-log.pages.ts). */
  readonly eventPages: EventPages;

  constructor(
    private readonly knex: Knex,
    private readonly jobs: JobRunner,
    private readonly eventLog: EventLog,
  ) {
    this.eventPages = new EventPages(knex);
  }

  /** M1 */
  async listJobs(q: Page & { filter: string; sort: JobSortKey; descending: boolean }) {
    const started = performance.now();
    const { total, rows } = await pageOfJobs(this.knex, q);
    return wrapper(q, total, rows.map(jobEntry), started);
  }

  /** M2: a job name schedules that job (ignored while it is scheduled or running); an action runs now. */
  async operate(name: string, actor: string): Promise<ReturnType<typeof jobEntry> | Record<string, never>> {
    if (JOB_NAMES.includes(name)) return jobEntry((await this.jobs.request(name, actor)).job);
    switch (name) {
      case ACTION.forceFail:
        await this.jobs.forceFail(actor);
        break;
      case ACTION.deleteEventsOlderThanOneMonth: {
        const before = new Date();
        before.setUTCMonth(before.getUTCMonth() - 1);
        await this.deleteEvents(actor, before);
        break;
      }
      case ACTION.deleteAllEvents:
        await this.deleteEvents(actor, undefined);
        break;
      default:
        throw new Error(`operation ${name} is listed but not handled`);
    }
    return {};
  }

  /** The deletion and the entry that records it commit together (so the log says who emptied it). */
  private async deleteEvents(actor: string, before: Date | undefined): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const deleted = await deleteEvents(trx, before);
      await this.eventLog.deleted(trx, before);
      await this.eventLog.record(trx, {
        actor,
        kind: 'event_log.deleted',
        target: { type: 'event_log' },
        after: { deleted, before: before?.toISOString() ?? null },
      });
    });
  }

  /** The event-log list as the JSON text of the page wrapper (the entries come as JSON from the database). */
  async listEvents(q: Page & { filter: EventFilter }): Promise<string> {
    const started = performance.now();
    const { total, rows } = await this.eventPages.page(q.filter, q.startAt, q.maxResults);
    // `values` is the wrapper's last member: the text ends `"values":[]}`; the closing `]}` is cut off, the
    // entries' JSON goes between.
    const head = JSON.stringify(wrapper(q, total, [], started)).slice(0, -2);
    return `${head}${rows.map((r) => r.json).join(',')}]}`;
  }

  /** M3 GET */
  async truncateSchedule() {
    return scheduleBody(await readTruncateSchedule(this.knex));
  }

  /** M3 PUT: the new schedule and its `settings.changed` entry in one transaction. */
  async setTruncateSchedule(schedule: TruncateSchedule, actor: string) {
    return this.knex.transaction(async (trx) => {
      const before = await readTruncateSchedule(trx);
      await writeTruncateSchedule(trx, schedule, actor);
      await this.eventLog.record(trx, {
        actor,
        kind: 'settings.changed',
        target: { type: 'setting', key: 'eventLogTruncateSchedule' },
        before: scheduleBody(before),
        after: scheduleBody(schedule),
      });
      return scheduleBody(schedule);
    });
  }
}
