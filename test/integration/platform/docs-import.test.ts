// The import document shown in docs/operations.md ("Import format") imports as the page says: every section
// lands, and a second import of the same file changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/test-app.ts';
import { runImport } from '../../../src/importer/import.service.ts';

const page = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/operations.md'), 'utf8');
const section = page.slice(page.indexOf('\n## Import format\n'));
const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];

describe('the import example of docs/operations.md', () => {
  const t = useTestApp();

  it('imports every section once, and nothing the second time', async () => {
    expect(example).toBeDefined();
    const doc = JSON.parse(example!) as Record<string, unknown>;
    const sections = Object.keys(doc).filter((k) => k !== 'version');
    const first = await runImport(t.services, doc, () => undefined);
    for (const name of sections) expect(first[name]?.created, name).toBeGreaterThan(0);
    const second = await runImport(t.services, doc, () => undefined);
    for (const name of sections) expect(second[name]?.created, name).toBe(0);
  });
});
