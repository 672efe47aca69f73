import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { contextsOfField, describeContexts } from '../../tracker/contexts.service.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { actorOf } from '../access/actor.ts';
import { fieldPermissionDenied } from '../shared/fieldeditor.errors.ts';
import { contextRecord, fieldRecord } from '../shared/fieldeditor.presenters.ts';
import type { DefaultsService } from '../options/defaults.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { FieldPages } from './field-pages.cache.ts';
import type { UserFieldReads } from './user-reads.cache.ts';
import { parseFieldId, parseScopeIds } from '../access/ids.ts';
import { legacyFieldList } from './field-pages.ts';
import type { PageRequest } from './fields.schemas.ts';

/**
 * The field lists (A1, U1) and what a user may edit of one field (U2, U3). A `null` page asks for the
 * deprecated plain array; a page request for the page wrapper (served from the per-node page cache).
 */
export class FieldsService {
  constructor(
    private readonly knex: Knex,
    private readonly access: FieldAccess,
    private readonly pages: FieldPages,
    private readonly settings: SettingsService,
    private readonly reads: UserFieldReads,
    private readonly defaults: Pick<DefaultsService, 'storedValue'>,
  ) {}

  /** A1: every field with its grants. */
  adminList(page: PageRequest | null) {
    return page ? this.pages.admin(page) : legacyFieldList(this.knex);
  }

  /** U1: the fields on which the user holds any grant. */
  userList(user: AuthUser, page: PageRequest | null) {
    return page ? this.pages.user(page, user) : legacyFieldList(this.knex, user);
  }

  /** U2: with a global grant every context of the field; otherwise the contexts the user holds a grant on. */
  async userContexts(user: AuthUser, rawFieldId: string, expand: ReadonlySet<string>): Promise<unknown[]> {
    const fieldId = parseFieldId(rawFieldId);
    const key = `${user.id}|${fieldId}|${expand.has('projects')}|${expand.has('issueTypes')}`;
    return this.reads.contexts.getOrLoad(key, () => this.loadUserContexts(user, rawFieldId, expand));
  }

  private async loadUserContexts(user: AuthUser, rawFieldId: string, expand: ReadonlySet<string>) {
    const field = await this.access.field(rawFieldId);
    const reach = await this.access.reachableContexts(user, field.id);
    if (reach.kind === 'none') throw fieldPermissionDenied();
    const contexts = (await contextsOfField(this.knex, field.id)).filter((c) => reach.kind === 'all' || reach.ids.has(c.id));
    const details = await describeContexts(this.knex, contexts, { projects: expand.has('projects'), issueTypes: expand.has('issueTypes') });
    return details.map(contextRecord);
  }

  /** U3: field, context, default value and what the user may do there. */
  async userContext(user: AuthUser, rawFieldId: string, rawContextId: string): Promise<Record<string, unknown>> {
    const ids = parseScopeIds(rawFieldId, rawContextId);
    return this.reads.context.getOrLoad(`${user.id}|${ids.fieldId}|${ids.context}`, () => this.loadUserContext(user, rawFieldId, rawContextId));
  }

  private async loadUserContext(user: AuthUser, rawFieldId: string, rawContextId: string) {
    const { field, context } = await this.access.readable(user, { rawFieldId, rawContextId });
    const [details, defaultOption, mayDelete] = await Promise.all([
      describeContexts(this.knex, [context]),
      this.defaults.storedValue(field, context),
      this.settings.mayDelete(actorOf(user)),
    ]);
    return {
      ...fieldRecord(field),
      context: details[0] ? contextRecord(details[0]) : undefined,
      defaultOption,
      authenticatedUserMeta: { userAllowedToDeleteOptions: mayDelete },
    };
  }
}
