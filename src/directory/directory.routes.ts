import { Router } from 'express';
import { currentUser, requireAdmin, requireUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { DirectoryService } from './directory.service.ts';
import { presentGroup, presentPickedGroup, presentUser } from './user.presenter.ts';
import * as s from './directory.schemas.ts';

/**
 * Host REST for the directory under /rest/api/2. Reads any user may do come first; everything after the
 * `requireAdmin` line is for administrators only.
 */
export function createDirectoryRouter({ directory, baseUrl }: { directory: DirectoryService; baseUrl: string }): Router {
  const r = Router();

  // Answered from the authenticated user (kept current by the change feed): no database work on this hot path.
  r.get('/myself', requireUser, (req, res) => {
    const u = currentUser(req);
    res.json(presentUser(baseUrl, { name: u.name, display_name: u.displayName, email: u.email, active: u.active, groups: u.groups }));
  });

  r.get('/user/search', requireUser, async (req, res) => {
    const q = parseWith(s.userSearchQuery, req.query);
    const found = await directory.searchUsers(q.username, q.startAt, q.maxResults);
    res.json(found.map((u) => presentUser(baseUrl, u)));
  });

  r.get('/groups/picker', requireUser, async (req, res) => {
    const q = parseWith(s.groupPickerQuery, req.query);
    const { total, names } = await directory.groupPicker(q.query, q.maxResults);
    res.json({ header: `Showing ${names.length} of ${total} matching groups`, total, groups: names.map((name) => presentPickedGroup(name, q.query)) });
  });

  // ---- administrators only below this line ----
  r.post('/user', requireAdmin, async (req, res) => {
    const body = parseWith(s.createUserBody, req.body, 'body');
    res.status(201).json(presentUser(baseUrl, await directory.createUser(body)));
  });

  r.get('/user', requireAdmin, async (req, res) => {
    const { username } = parseWith(s.usernameQuery, req.query);
    res.json(presentUser(baseUrl, await directory.getUser(username)));
  });

  r.put('/user/password', requireAdmin, async (req, res) => {
    const { username } = parseWith(s.usernameQuery, req.query);
    const { password } = parseWith(s.passwordBody, req.body, 'body');
    await directory.setPassword(username, password);
    res.status(204).end();
  });

  r.delete('/user/lockout', requireAdmin, async (req, res) => {
    const { username } = parseWith(s.usernameQuery, req.query);
    await directory.resetLockout(username);
    res.status(204).end();
  });

  r.delete('/user', requireAdmin, async (req, res) => {
    const { username } = parseWith(s.usernameQuery, req.query);
    await directory.deleteUser(username);
    res.status(204).end();
  });

  r.post('/group', requireAdmin, async (req, res) => {
    const { name } = parseWith(s.groupBody, req.body, 'body');
    const group = await directory.createGroup(name);
    res.status(201).json(presentGroup(baseUrl, group.name));
  });

  r.delete('/group', requireAdmin, async (req, res) => {
    const { groupname } = parseWith(s.groupnameQuery, req.query);
    await directory.deleteGroup(groupname);
    res.status(200).end();
  });

  r.post('/group/user', requireAdmin, async (req, res) => {
    const { groupname } = parseWith(s.groupnameQuery, req.query);
    const { name } = parseWith(s.memberBody, req.body, 'body');
    const group = await directory.addMember(groupname, name);
    res.status(201).json(presentGroup(baseUrl, group.name));
  });

  r.delete('/group/user', requireAdmin, async (req, res) => {
    const q = parseWith(s.memberQuery, req.query);
    await directory.removeMember(q.groupname, q.username);
    res.status(200).end();
  });

  return r;
}
