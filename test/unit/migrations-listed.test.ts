import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.ts';

describe('migrations/index.ts', () => {
  it('lists every migration file of the folder, and only those', () => {
    const dir = path.resolve(import.meta.dirname, '../../migrations');
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^\d{14}_.+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(Object.keys(migrations).sort()).toEqual(files);
  });
});
