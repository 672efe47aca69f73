import type { Knex } from 'knex';
import type { ChangeFeed } from '../../platform/events/change-feed.ts';
import { contextsOfField, createContext, deleteContext, describeContexts, updateContext } from '../../tracker/contexts.service.ts';
import type { CreateContextInput, UpdateContextInput } from '../../tracker/tracker.schemas.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { contextRecord } from '../fieldeditor.presenters.ts';

/** Contexts of a field for administrators (A5–A8): the tracker host's rules, in the field editor's shapes. */
export class FieldContextsService {
  constructor(
    private readonly knex: Knex,
    private readonly changes: ChangeFeed,
    private readonly access: FieldAccess,
  ) {}

  async list(rawFieldId: string, expand: ReadonlySet<string>) {
    const field = await this.access.field(rawFieldId);
    const details = await describeContexts(this.knex, await contextsOfField(this.knex, field.id), {
      projects: expand.has('projects'),
      issueTypes: expand.has('issueTypes'),
    });
    return details.map(contextRecord);
  }

  async create(rawFieldId: string, input: CreateContextInput) {
    const field = await this.access.field(rawFieldId);
    return contextRecord(await createContext(this.knex, this.changes, field, input));
  }

  async update(rawFieldId: string, rawContextId: string, input: UpdateContextInput) {
    const field = await this.access.field(rawFieldId);
    const context = await this.access.context(field, rawContextId);
    return contextRecord(await updateContext(this.knex, this.changes, field, context, input));
  }

  async remove(rawFieldId: string, rawContextId: string) {
    const field = await this.access.field(rawFieldId);
    const context = await this.access.context(field, rawContextId);
    return contextRecord(await deleteContext(this.knex, this.changes, field, context));
  }
}
