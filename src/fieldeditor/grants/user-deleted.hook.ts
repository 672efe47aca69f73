import type { EventBus } from '../../platform/events/event-bus.ts';
import type { Logger } from '../../platform/log/logger.ts';
import type { GrantsService } from './grants.service.ts';

/**
 * The host's user-deleted event removes that user's grants, so a later user of the same name does not
 * inherit them (group grants stay: the group still exists). Runs after the deletion committed.
 */
export function subscribeGrantCleanup(events: EventBus, grants: GrantsService, log?: Logger): void {
  events.on('user.deleted', async ({ username }) => {
    const removed = await grants.removeUserGrants(username);
    if (removed > 0) log?.info({ username, removed }, 'field-editor grants of a deleted user removed');
  });
}
