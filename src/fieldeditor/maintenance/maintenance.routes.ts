import { Router } from 'express';
import { currentUser, requireAdmin } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { onlyFrom, type ApiVersion } from '../fieldeditor.errors.ts';
import type { MaintenanceService } from './maintenance.service.ts';
import * as s from './maintenance.schemas.ts';

/**
 * M1–M3 and the event-log list, administrators only. Like every route added after the 1.2 generation
 * they answer 412 under the `1.2` base paths (after 401/403).
 */
export function createMaintenanceRouter(deps: { maintenance: MaintenanceService }, version: ApiVersion): Router {
  const { maintenance } = deps;
  const r = Router();
  r.use('/maintenance', requireAdmin, onlyFrom(version, '1'));

  r.get('/maintenance/jobs', async (req, res) => {
    res.json(await maintenance.listJobs(parseWith(s.jobsQuery, req.query, 'query')));
  });
  r.post('/maintenance/operations', async (req, res) => {
    const { name } = parseWith(s.operationBody, req.body ?? null, 'body');
    res.json(await maintenance.operate(name, currentUser(req).name));
  });
  r.get('/maintenance/event_log_entries', async (req, res) => {
    res.type('application/json').send(await maintenance.listEvents(parseWith(s.eventsQuery, req.query, 'query')));
  });
  r.get('/maintenance/event_log_entries/truncate_schedule', async (_req, res) => {
    res.json(await maintenance.truncateSchedule());
  });
  r.put('/maintenance/event_log_entries/truncate_schedule', async (req, res) => {
    res.json(await maintenance.setTruncateSchedule(parseWith(s.truncateScheduleBody, req.body ?? null, 'body'), currentUser(req).name));
  });
  return r;
}
