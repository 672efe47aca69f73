// The system administrator's upload of a space export (POST /rest/addon-pair/1/migration/wiki-export): the zip
// or entities.xml as the body, the report as JSON; 401 and 403 below system administrators; 415, 413 and 400
// for a body that is not an export; the dry run writes nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { buildEntitiesXml, writeExportZip, type ExportDescription } from '../../helpers/wiki-export-builder.ts';

const PATH = '/rest/addon-pair/1/migration/wiki-export';

const desc: ExportDescription = {
  spaces: [
    { id: 21, key: 'UPA', name: 'Uploaded A', pages: [{ id: 5101, title: 'A home', body: '<p>a</p>', children: [{ id: 5102, title: 'A child', body: '<p>c</p>' }] }] },
    { id: 22, key: 'UPB', name: 'Uploaded B', pages: [{ id: 5201, title: 'B home', body: '<p>b</p>', creator: 'up-erin' }] },
  ],
};

describe('POST /rest/addon-pair/1/migration/wiki-export', () => {
  const t = useTestApp({ MIGRATION_UPLOAD_MAX_MB: '1' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-upload-'));
  const zip = path.join(dir, 'export.zip');
  let admin: TestUser;
  let sysadmin: TestUser;

  beforeAll(async () => {
    writeExportZip(zip, desc);
    admin = await t.createUser('up-admin', { admin: true });
    sysadmin = await t.createUser('up-sysadmin', { sysadmin: true });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const upload = (auth: string | undefined, type: string, body: Buffer | string, query = '') => {
    const req = t.http.post(`${PATH}${query}`).set('Content-Type', type);
    return (auth ? req.set('Authorization', auth) : req).send(body);
  };

  it('answers 401 without credentials and 403 to an administrator who is not a system administrator', async () => {
    const anonymous = await upload(undefined, 'application/zip', fs.readFileSync(zip));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ errorMessages: expect.any(Array) });
    const refused = await upload(admin.auth, 'application/zip', fs.readFileSync(zip));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ errorMessages: expect.any(Array) });
    expect(await t.services.db.knex('spaces').where({ key: 'UPA' }).first()).toBeUndefined();
  });

  it('dry run of one space: the report, nothing written', async () => {
    const res = await upload(sysadmin.auth, 'application/zip', fs.readFileSync(zip), '?space=UPA&dryRun=true').expect(200);
    expect(res.body).toMatchObject({ dryRun: true, units: [{ kind: 'space', name: 'UPA', outcome: 'would-import', counts: { pages: { created: 2 } } }] });
    expect(await t.services.db.knex('spaces').where({ key: 'UPA' }).first()).toBeUndefined();
  });

  it('imports every space of the zip and answers the report; a re-run is unchanged', async () => {
    const res = await upload(sysadmin.auth, 'application/zip', fs.readFileSync(zip)).expect(200);
    expect(res.body.units.map((u: { name: string; outcome: string }) => [u.name, u.outcome])).toEqual([
      ['UPA', 'imported'],
      ['UPB', 'imported'],
    ]);
    expect(res.body.usersWithoutPassword).toContain('up-erin');
    expect(Number((await t.services.db.knex('contents').where({ id: 5102 }).first()).parent_id)).toBe(5101);
    const again = await upload(sysadmin.auth, 'application/zip', fs.readFileSync(zip)).expect(200);
    expect(again.body.units.map((u: { outcome: string }) => u.outcome)).toEqual(['unchanged', 'unchanged']);
  });

  it('takes a bare entities.xml', async () => {
    const xml = buildEntitiesXml({ spaces: [{ id: 23, key: 'UPX', name: 'From XML', pages: [{ id: 5301, title: 'X', body: '<p>x</p>' }] }] });
    const res = await upload(sysadmin.auth, 'application/xml', xml).expect(200);
    expect(res.body.units).toEqual([expect.objectContaining({ name: 'UPX', outcome: 'imported' })]);
  });

  it('refuses what is not an export: another type 415, too large 413, a truncated zip or foreign XML 400 with one line', async () => {
    await upload(sysadmin.auth, 'application/json', '{}').expect(415);
    const big = await upload(sysadmin.auth, 'application/zip', Buffer.alloc(1024 * 1024 + 10));
    expect(big.status).toBe(413);
    const truncated = fs.readFileSync(zip).subarray(0, 200);
    const bad = await upload(sysadmin.auth, 'application/zip', truncated);
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessages).toHaveLength(1);
    expect(bad.body.errorMessages[0]).not.toContain('\n');
    const foreign = await upload(sysadmin.auth, 'application/xml', '<?xml version="1.0"?><rss><channel/></rss>');
    expect(foreign.status).toBe(400);
    expect(foreign.body.errorMessages[0]).toMatch(/export/i);
  });
});
