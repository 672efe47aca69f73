import { EventEmitter } from 'node:events';
import type { Logger } from '../log/logger.ts';

/**
 * Domain events inside one process. Features publish facts ("user deleted", "option changed");
 * other features subscribe without the publisher knowing them, so dependencies stay one-way.
 * Handlers run after the publisher's transaction committed; a failing handler is logged, never thrown
 * back into the request that raised the event.
 */
export interface DomainEvents {
  'user.deleted': { userId: number; username: string };
  'option.changed': {
    actor: string;
    action: string;
    fieldId: number;
    contextId: number;
    before: unknown;
    after: unknown;
    at: Date;
  };
}

export type DomainEventName = keyof DomainEvents;
type Handler<K extends DomainEventName> = (payload: DomainEvents[K]) => void | Promise<void>;

export class EventBus {
  private readonly emitter = new EventEmitter();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log?: Logger) {
    this.emitter.setMaxListeners(100);
  }

  on<K extends DomainEventName>(name: K, handler: Handler<K>): () => void {
    const wrapped = (payload: DomainEvents[K]) => {
      const run = (async () => {
        try {
          await handler(payload);
        } catch (err) {
          this.log?.error({ err, event: name }, 'event handler failed');
        }
      })();
      this.pending.add(run);
      void run.finally(() => this.pending.delete(run));
    };
    this.emitter.on(name, wrapped);
    return () => this.emitter.off(name, wrapped);
  }

  emit<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    this.emitter.emit(name, payload);
  }

  /** Resolves when every handler started so far has finished (tests and shutdown use it). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
