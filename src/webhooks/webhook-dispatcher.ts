import os from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../platform/log/logger.ts';
import { EventHorizon } from './event-horizon.ts';
import { entriesBetween, oldestEntryAfter } from './event-feed.repository.ts';
import * as hooks from './webhooks.repository.ts';
import * as deliveries from './webhook-deliveries.repository.ts';
import { eventOf, kindsOf, payloadOf } from './webhook-events.ts';
import { afterFailure, backoffMs } from './retry-policy.ts';
import type { WebhookSender } from './webhook-sender.ts';

export interface DispatcherOptions {
  pollMs: number;
  leaseMs: number;
  backoffMs: number;
  retrySeconds: number;
}

/** Deliveries sent in order before their outcomes are recorded together: what a node killed mid-batch may send twice. */
export const BATCH = 50;
/** Event-log entries turned into deliveries per step. */
const PRODUCE = 1000;
/** Subscriptions one node serves at a time. */
const CLAIMS = 8;

export type AttemptOutcome = 'delivered' | 'retried' | 'failed';

/** Where a subscription's deliveries go, as last read (an administrator may change it while a node delivers). */
interface Target {
  url: string;
  secret: string | null;
}

/** Thrown when a node finds it no longer holds a subscription it was serving: it stops writing for it. */
class ClaimLost extends Error {}

/** The claim a node serves under: its ticket, and when its lease was last extended (this node's clock). */
interface Held {
  ticket: number;
  renewedAt: number;
}

/**
 * Delivers webhooks on this node, beside every other node on the same database (the outbox pattern): each poll
 * it claims free subscriptions that have work with a lease (`webhooks.lease_*`, one node per subscription at a
 * time; claimWebhooks says which come first), turns the new event-log entries up to the event horizon into queued
 * deliveries (moving the subscription's cursor in the same transaction), and POSTs the queue's head in order, a
 * batch at a time. Outcomes are recorded after each batch in a transaction that first checks the claim's ticket;
 * a node killed mid-batch leaves its lease to expire and the next node sends that batch again (at least once,
 * never lost). A delivery that fails blocks the ones after it until it succeeds or is given up (in order per
 * subscription).
 */
export class WebhookDispatcher {
  /** This node's name in the leases it takes: host, the server's pid (also in a delivery child), a random tail. */
  readonly node: string;
  private readonly horizon = new EventHorizon();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  private stopping = false;
  /** Metrics: each attempt's outcome. */
  observer: { attempted(outcome: AttemptOutcome): void } | undefined;

  constructor(
    private readonly knex: Knex,
    private readonly sender: WebhookSender,
    private readonly log: Logger,
    private readonly opts: DispatcherOptions,
    serverPid = process.pid,
  ) {
    this.node = `${os.hostname()}:${serverPid}:${randomBytes(3).toString('hex')}`;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops polling and waits for the current round; held subscriptions are released (or their lease expires). */
  async stop(): Promise<void> {
    this.started = false;
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running;
    this.sender.close();
  }

  /**
   * Runs one round now (tests; also what the timer does). True when work was left over (a full batch sent, or more
   * entries to turn into deliveries): the next round then starts at once. A round that found only a few changes
   * waits for the next poll, so a steady trickle of writes is delivered a batch at a time rather than by a busy
   * loop of rounds that each cost their queries (the writes would pay for them).
   */
  async runOnce(): Promise<boolean> {
    const start = await hooks.lowestCursor(this.knex);
    if (start === undefined) return false;
    const upTo = await this.horizon.advance(this.knex, start);
    const claims = await this.knex.transaction((trx) => hooks.claimWebhooks(trx, this.node, this.opts.leaseMs, CLAIMS, upTo));
    const backlog = await Promise.all(claims.map((c) => this.serve(c, upTo)));
    return backlog.some(Boolean);
  }

  /** Age in seconds of the oldest event not delivered yet (queued, or not yet turned into a delivery); 0 when none. */
  async lagSeconds(): Promise<number> {
    const [pending, cursor] = await Promise.all([deliveries.oldestPendingSince(this.knex), hooks.lowestCursor(this.knex)]);
    const unproduced = cursor === undefined ? undefined : await oldestEntryAfter(this.knex, cursor);
    const oldest = Math.min(pending?.getTime() ?? Infinity, unproduced?.getTime() ?? Infinity);
    return Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0;
  }

  private schedule(ms: number): void {
    if (!this.started) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((err: unknown) => {
          this.log.warn({ err }, 'webhook round failed; retrying at the next poll');
          return false;
        })
        .then((backlog) => this.schedule(backlog ? 0 : this.opts.pollMs));
    }, ms);
    this.timer.unref();
  }

  /**
   * Serves one claimed subscription until its queue is empty or blocked, the lease is half gone, or it was paused;
   * then gives it back (fenced by the ticket: a claim another node took meanwhile is left alone). True when it
   * stopped with work left (the lease's half went by while a backlog was being sent).
   */
  private async serve(claim: hooks.Claim, upTo: number): Promise<boolean> {
    const { row, ticket } = claim;
    const held: Held = { ticket, renewedAt: Date.now() };
    const until = held.renewedAt + this.opts.leaseMs / 2;
    const target: Target = { url: row.url, secret: row.secret };
    let backlog = false;
    try {
      let cursor = row.cursor;
      while (!this.stopping && Date.now() < until) {
        const produced = await this.produce(row, held, cursor, upTo, target);
        cursor = produced.cursor;
        const sent = await this.sendHead(row.id, held, target);
        backlog = produced.more || sent.count === BATCH;
        if (sent.blocked || (sent.count === 0 && !produced.more)) break;
      }
    } catch (err) {
      if (!(err instanceof ClaimLost)) throw err;
      this.log.info({ webhook: row.id }, 'stopped delivering for a webhook subscription: paused, deleted, or its claim taken over');
    } finally {
      await hooks.releaseClaim(this.knex, row.id, ticket).catch((err: unknown) => this.log.warn({ err }, 'could not release a webhook claim; its lease will expire'));
    }
    return backlog;
  }

  /** Renews the claim and takes the subscription's current target and secret; ClaimLost when lost or paused. */
  private async renew(trx: Knex, id: number, held: Held, target: Target, cursor?: number): Promise<void> {
    const current = await hooks.renewClaim(trx, id, held.ticket, this.opts.leaseMs, cursor);
    if (!current || !current.enabled) throw new ClaimLost();
    held.renewedAt = Date.now();
    target.url = current.url;
    target.secret = current.secret;
  }

  /** Turns the subscription's entries after its cursor (up to the horizon) into queued deliveries. */
  private async produce(row: hooks.WebhookRow, held: Held, cursor: number, upTo: number, target: Target): Promise<{ cursor: number; count: number; more: boolean }> {
    if (upTo <= cursor) return { cursor, count: 0, more: false };
    return this.knex.transaction(async (trx) => {
      const entries = await entriesBetween(trx, { after: cursor, upTo, kinds: kindsOf(row.events), fieldId: row.field_id, contextId: row.context_id, limit: PRODUCE });
      const more = entries.length === PRODUCE;
      const next = more ? entries.at(-1)!.id : upTo;
      await this.renew(trx, row.id, held, target, next);
      await deliveries.insertDeliveries(
        trx,
        row.id,
        entries.map((e) => {
          const event = eventOf(e.kind)!;
          return { event_log_id: e.id, event, identifier: randomUUID(), payload: payloadOf(e, event) };
        }),
      );
      return { cursor: next, count: entries.length, more };
    });
  }

  /**
   * Sends the due head of the queue in order, stopping at the first failure; records the outcomes together. A batch
   * that has taken half the lease (a slow receiver, or this process not scheduled for a while) extends the lease
   * before its next attempt, and stops at once when the claim is gone: another node has taken the subscription over
   * and sends this batch itself, so this node must not send its rest as well (a stalled node would otherwise repeat
   * up to a batch beside the one taking over). Paused meanwhile: the batch stops and what was sent is recorded.
   */
  private async sendHead(id: number, held: Held, target: Target): Promise<{ count: number; blocked: boolean }> {
    const batch = await deliveries.dueHead(this.knex, id, BATCH);
    const outcomes: deliveries.Recorded[] = [];
    for (const d of batch) {
      if (Date.now() - held.renewedAt >= this.opts.leaseMs / 2) {
        const still = await hooks.renewClaim(this.knex, id, held.ticket, this.opts.leaseMs);
        if (!still) throw new ClaimLost();
        held.renewedAt = Date.now();
        if (!still.enabled) break;
      }
      const result = await this.sender.send({ url: target.url, identifier: d.identifier, payload: d.body, secret: target.secret });
      if (result.ok) {
        outcomes.push({ ...result, id: d.id, next: 'delivered', retryInMs: 0 });
        continue;
      }
      const next = afterFailure(new Date(d.created_at), Date.now(), this.opts.retrySeconds);
      outcomes.push({ ...result, id: d.id, next, retryInMs: next === 'retry' ? backoffMs(d.attempts + 1, this.opts.backoffMs) : 0 });
      // A given-up delivery no longer blocks the queue; a retried one does.
      if (next === 'retry') break;
    }
    if (outcomes.length === 0) return { count: 0, blocked: false };
    const current = await this.knex.transaction(async (trx) => {
      // Recorded even when the subscription was paused meanwhile: these attempts were made.
      const now = await hooks.renewClaim(trx, id, held.ticket, this.opts.leaseMs);
      if (!now) throw new ClaimLost();
      await deliveries.recordDelivered(trx, outcomes.filter((o) => o.next === 'delivered'));
      await deliveries.recordAttempts(trx, outcomes.filter((o) => o.next !== 'delivered'));
      const last = outcomes.at(-1)!;
      if (last.next === 'failed') await hooks.setStatus(trx, id, 'failing');
      else if (outcomes.some((o) => o.next === 'delivered')) await hooks.setStatus(trx, id, 'ok');
      return now;
    });
    held.renewedAt = Date.now();
    for (const o of outcomes) this.observer?.attempted(o.next === 'retry' ? 'retried' : o.next);
    if (!current.enabled) throw new ClaimLost();
    target.url = current.url;
    target.secret = current.secret;
    return { count: outcomes.length, blocked: outcomes.at(-1)!.next === 'retry' };
  }
}
