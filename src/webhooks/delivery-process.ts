// On PostgreSQL a node delivers its webhooks from a child process of the server that runs at a lower CPU priority
// (WEBHOOK_DELIVERY_NICE). The POSTs, their answers and the queue's bookkeeping then take the CPU the requests
// leave over, and never wait in the request thread's event loop: while deliveries run, writes keep their speed
// (issue 28; bench/results/webhooks.md). The child runs the same WebhookDispatcher on a pool of its own; its
// lease makes it this node's delivering worker like any other, and it names itself after the server's pid.
// With the embedded database one process owns the data folder, so there the server delivers itself.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Logger } from '../platform/log/logger.ts';
import type { BackgroundWorker } from '../platform/feature.ts';
import { DELIVER_WEBHOOKS_COMMAND, type DeliveryChildMessage, type DeliveryParentMessage } from './delivery-command.ts';
import type { AttemptOutcome } from './webhook-dispatcher.ts';

/** How long `stop` waits for the child to finish its batch before it is killed (the lease then covers the rest). */
const STOP_WAIT_MS = 15_000;
const FIRST_RESTART_MS = 500;
const LAST_RESTART_MS = 30_000;

/** The environment variable that hands the server's pid to the child, which puts it in its lease's node name. */
export const SERVER_PID_VARIABLE = 'ADDON_PAIR_SERVER_PID';

export interface DeliveryProcessOptions {
  /** 0 (as the server) to 19 (only idle CPU). */
  nice: number;
  log: Logger;
  /** Each attempt's outcome, as the child reports it (the server's metrics count them). */
  onAttempt(outcome: AttemptOutcome): void;
  /** The server's entry point and Node flags (tsx in development); the server's own by default. */
  entry?: string;
  execArgv?: readonly string[];
}

export class DeliveryProcess implements BackgroundWorker {
  private child: ChildProcess | undefined;
  private stopping = false;
  private restartMs = FIRST_RESTART_MS;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: DeliveryProcessOptions) {}

  /** The running child's pid (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    this.stopping = false;
    if (!this.child) this.spawnChild();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const stop: DeliveryParentMessage = { stop: true };
    if (child.connected) child.send(stop, () => undefined);
    else child.kill('SIGTERM');
    const late = setTimeout(() => child.kill('SIGKILL'), STOP_WAIT_MS);
    await exited;
    clearTimeout(late);
  }

  private spawnChild(): void {
    const entry = this.opts.entry ?? process.argv[1];
    if (!entry) throw new Error('cannot find the entry point to start the webhook delivery process');
    const child = spawn(process.execPath, [...(this.opts.execArgv ?? process.execArgv), entry, DELIVER_WEBHOOKS_COMMAND], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, [SERVER_PID_VARIABLE]: String(process.pid) },
    });
    this.child = child;
    child.once('spawn', () => this.lowerPriority(child));
    child.on('message', (m: DeliveryChildMessage) => {
      if ('attempted' in m) this.opts.onAttempt(m.attempted);
      else if ('ready' in m) this.restartMs = FIRST_RESTART_MS;
    });
    child.once('error', (err) => this.opts.log.warn({ err }, 'could not start the webhook delivery process'));
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (this.stopping) return;
      // Its subscriptions' leases expire (WEBHOOK_LEASE_MS), so a new child, or another node, takes them over.
      this.opts.log.warn({ code, signal, restartInMs: this.restartMs }, 'the webhook delivery process ended; starting it again');
      this.restartTimer = setTimeout(() => this.spawnChild(), this.restartMs);
      this.restartTimer.unref();
      this.restartMs = Math.min(this.restartMs * 2, LAST_RESTART_MS);
    });
  }

  private lowerPriority(child: ChildProcess): void {
    if (this.opts.nice === 0 || child.pid === undefined) return;
    try {
      os.setPriority(child.pid, this.opts.nice);
    } catch (err) {
      this.opts.log.warn({ err }, 'could not lower the webhook delivery process\'s priority; it delivers at the server\'s');
    }
  }
}
