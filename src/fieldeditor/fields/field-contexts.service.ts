import type { Knex } from 'knex';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { contextsOfField, createContext, deleteContext, describeContexts, updateContext, type ContextChangeHook } from '../../tracker/contexts.service.ts';
import type { EventLog } from '../maintenance/event-log.ts';
import type { CreateContextInput, UpdateContextInput } from '../../tracker/tracker.schemas.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { contextRecord } from '../shared/fieldeditor.presenters.ts';

/** Contexts of a field for administrators (A5–A8): the tracker host's rules, in the field editor's shapes. */
export class FieldContextsService {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
    private readonly access: FieldAccess,
    private readonly eventLog: EventLog,
  ) {}

  /** The change's event-log entry, written inside the tracker's transaction of the change. */
  private logged(actor: string, kind: string, fieldId: number): ContextChangeHook {
    return (trx, { before, after }) =>
      this.eventLog.record(trx, {
        actor,
        kind,
        fieldId,
        contextId: (after ?? before)?.id ?? null,
        target: { type: 'context', id: (after ?? before)?.id ?? null },
        before: before && contextRecord(before),
        after: after && contextRecord(after),
      });
  }

  async list(rawFieldId: string, expand: ReadonlySet<string>) {
    const field = await this.access.field(rawFieldId);
    const details = await describeContexts(this.knex, await contextsOfField(this.knex, field.id), {
      projects: expand.has('projects'),
      issueTypes: expand.has('issueTypes'),
    });
    return details.map(contextRecord);
  }

  async create(actor: string, rawFieldId: string, input: CreateContextInput) {
    const field = await this.access.field(rawFieldId);
    return contextRecord(await createContext(this.knex, this.changes, field, input, this.logged(actor, 'context.created', field.id)));
  }

  async update(actor: string, rawFieldId: string, rawContextId: string, input: UpdateContextInput) {
    const field = await this.access.field(rawFieldId);
    const context = await this.access.context(field, rawContextId);
    return contextRecord(await updateContext(this.knex, this.changes, field, context, input, this.logged(actor, 'context.updated', field.id)));
  }

  async remove(actor: string, rawFieldId: string, rawContextId: string) {
    const field = await this.access.field(rawFieldId);
    const context = await this.access.context(field, rawContextId);
    return contextRecord(await deleteContext(this.knex, this.changes, field, context, this.logged(actor, 'context.deleted', field.id)));
  }
}
