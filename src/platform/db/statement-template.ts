import type { Knex } from 'knex';

/**
 * A statement compiled to SQL once: `text` with PostgreSQL's `$1…` placeholders (for node-postgres), `sql` with
 * knex's `?` (for `knex.raw` on the embedded database), and the values of this use.
 */
export interface CompiledStatement {
  readonly compiled: true;
  readonly text: string;
  readonly sql: string;
  readonly values: readonly unknown[];
}

export const isCompiled = (s: unknown): s is CompiledStatement => (s as { compiled?: unknown } | null)?.compiled === true;

/** A binding of the compiled statement: a parameter of the template (by name, lower-cased if the build did) or a constant of its shape. */
type Slot = { param: string; lower: boolean } | { value: unknown };

/**
 * Parameters stand in as these markers while the statement is built. A build that lower-cases one (a user
 * name, say) lower-cases the marker's `P` with it, and each use's value is then lower-cased the same way.
 */
const marker = (name: string) => `\uE000P:${name}\uE000`;
const MARKER = /^\uE000([Pp]):([^\uE000]+)\uE000$/;

/**
 * Statements whose SQL text depends only on a few shape choices, built by knex once per shape instead of on
 * every request: compiling a query with subqueries (the write right's scope query, say) cost about 0.1 ms of the
 * server's time per write, more than sending it. `build` gets its parameters as markers and must pass each
 * to knex as a binding unchanged (or lower-cased); a binding made from a marker otherwise (a part of a longer
 * string) is refused when the shape is compiled. A choice that changes the SQL text belongs in `shape`.
 */
export class StatementTemplates {
  private readonly shapes = new Map<string, { text: string; sql: string; slots: Slot[] }>();

  constructor(private readonly knex: Knex) {}

  /** The statement of shape `shape` (a key naming the choices `build` makes) with `params` as its values. */
  compile<P extends Record<string, unknown>>(shape: string, params: P, build: (knex: Knex, p: P) => Knex.QueryBuilder | Knex.Raw): CompiledStatement {
    let compiled = this.shapes.get(shape);
    if (!compiled) {
      const markers = Object.fromEntries(Object.keys(params).map((k) => [k, marker(k)])) as P;
      const names = new Map(Object.keys(params).flatMap((k) => [[k, k] as const, [k.toLowerCase(), k] as const]));
      const query = build(this.knex, markers).toSQL();
      const slots = query.bindings.map((b): Slot => {
        const m = typeof b === 'string' ? MARKER.exec(b) : null;
        const param = m && names.get(m[2]!);
        if (m && param) return { param, lower: m[1] === 'p' };
        if (typeof b === 'string' && b.includes('\uE000')) throw new Error(`statement ${shape}: a parameter was changed while building it`);
        return { value: b };
      });
      compiled = { text: query.toNative().sql, sql: query.sql, slots };
      this.shapes.set(shape, compiled);
    }
    const values = compiled.slots.map((s) => ('param' in s ? (s.lower ? String(params[s.param]).toLowerCase() : params[s.param]) : s.value));
    return { compiled: true, text: compiled.text, sql: compiled.sql, values };
  }
}
