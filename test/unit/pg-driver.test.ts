import { describe, expect, it } from 'vitest';
import { pgDriver } from '../../src/platform/db/pg-driver.ts';

describe('pgDriver', () => {
  it('loads node-postgres once, with int8 parsed as a number, and leaves no navigator global behind', () => {
    const hadNavigator = 'navigator' in globalThis;
    const pg = pgDriver();
    expect(typeof pg.Client).toBe('function');
    expect(pgDriver()).toBe(pg);
    // bigserial ids and count(*) come back as numbers, as PGlite returns them.
    expect(pg.types.getTypeParser(20)('9007199254740991')).toBe(9007199254740991);
    // The Node 21 `navigator` that Node 20 gets during the require is gone again (Node 21+ keeps its own).
    expect('navigator' in globalThis).toBe(hadNavigator);
  });
});
