import type { Knex } from 'knex';

/**
 * Cluster-safe background jobs (src/platform/jobs): one row per job with its current state and the lease of
 * the node running it, and one row per run (the history). A run is claimed by a conditional update of the
 * job's row; `ticket` grows with every claim and fences a node that lost its claim.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.comment('Background jobs: the current state of each job that was ever scheduled');
    t.string('name', 100).primary().comment('Job name, e.g. JobIndexCustomFieldSearchTable');
    t.string('status', 16).notNullable().comment('SCHEDULED, RUNNING, SUCCESS or FAILED');
    t.timestamp('scheduled_time', { useTz: true }).nullable().comment('When the current or last run was requested');
    t.timestamp('started_time', { useTz: true }).nullable().comment('When the current or last run was claimed by a node');
    t.timestamp('finished_time', { useTz: true }).nullable().comment('When the last run ended (null while scheduled or running)');
    t.string('requested_by', 255).nullable().comment("Who requested the current or last run: a user name or 'system' (schedule)");
    t.string('node', 100).nullable().comment('Node (host:pid:random) running or last having run the job');
    t.timestamp('lease_expires_at', { useTz: true }).nullable().comment('While RUNNING: the claim is lost when this passes without renewal');
    t.bigInteger('ticket').notNullable().defaultTo(0).comment('Raised by every claim; a node writes only while its ticket is current');
    t.bigInteger('last_tick').nullable().comment('Schedule tick (epoch ms / tick length) last claimed for this job, so a tick runs once per cluster');
    t.bigInteger('scheduled_tick').nullable().comment('The tick of the pending or current run when the schedule requested it; null when a user did');
    t.text('message').nullable().comment('Outcome message of the last run (error text, lease expiry, force-fail)');
    t.integer('runs').notNullable().defaultTo(0).comment('How many runs were claimed so far');
  });
  await knex.raw("alter table jobs add constraint jobs_status_check check (status in ('SCHEDULED', 'RUNNING', 'SUCCESS', 'FAILED'))");
  await knex.schema.createTable('job_runs', (t) => {
    t.comment('History of background job runs, one row per claimed run');
    t.bigIncrements('id').comment('Surrogate key');
    t.string('job_name', 100).notNullable().references('jobs.name').onDelete('CASCADE').comment('The job');
    t.bigInteger('ticket').notNullable().comment('The ticket of this run (jobs.ticket when it was claimed)');
    t.bigInteger('tick').nullable().comment('The schedule tick this run belongs to; null for a requested run');
    t.string('node', 100).notNullable().comment('Node that ran it');
    t.string('requested_by', 255).nullable().comment("Who requested it: a user name or 'system'");
    t.timestamp('scheduled_time', { useTz: true }).nullable().comment('When it was requested');
    t.timestamp('started_time', { useTz: true }).notNullable().comment('When it was claimed');
    t.timestamp('finished_time', { useTz: true }).nullable().comment('When it ended; null while running');
    t.string('outcome', 16).nullable().comment('SUCCESS or FAILED; null while running');
    t.text('message').nullable().comment('Outcome message');
    t.unique(['job_name', 'ticket']);
    t.index(['job_name', 'started_time']);
  });
  // A schedule tick runs once across the cluster: a second run of the same tick could not even be recorded.
  await knex.raw('create unique index job_runs_one_per_tick on job_runs (job_name, tick) where tick is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('job_runs');
  await knex.schema.dropTableIfExists('jobs');
}
