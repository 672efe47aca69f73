/**
 * One piece of work per key at a time on this node (issue 44: one option sync per user): `take` answers a
 * release function, or undefined while the key's slot is held. A slot is held in memory only and released by
 * its holder (in a finally), so a process that ends frees every slot with it.
 */
export class OnePerKey {
  private readonly held = new Set<string>();

  take(key: string): (() => void) | undefined {
    if (this.held.has(key)) return undefined;
    this.held.add(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held.delete(key);
    };
  }

  /** Keys held now (metrics, tests). */
  get size(): number {
    return this.held.size;
  }
}
