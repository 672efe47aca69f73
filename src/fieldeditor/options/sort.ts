/**
 * Locale-aware ordering of option values with Java-Collator-like strengths, done with Intl.Collator:
 *   PRIMARY   → sensitivity 'base'    (a = á = A: only base letters differ)
 *   SECONDARY → sensitivity 'accent'  (a ≠ á, a = A)
 *   TERTIARY  → sensitivity 'variant' (a ≠ á ≠ A; the default, as Java's Collator)
 *   IDENTICAL → 'variant', then code points (so even canonically equivalent spellings get a fixed order)
 * Values the collator finds equal keep their current relative order (the sort is stable on `sequence`),
 * so a PRIMARY sort never reshuffles "Apfel" / "apfel" arbitrarily. DESCENDING reverses the comparison,
 * not the tie order.
 */
export type Strength = 'PRIMARY' | 'SECONDARY' | 'TERTIARY' | 'IDENTICAL';
export type SortOrder = 'ASCENDING' | 'DESCENDING';

export interface SortSpec {
  locale: string;
  strength: Strength;
  order: SortOrder;
}

const SENSITIVITY: Record<Strength, 'base' | 'accent' | 'variant'> = {
  PRIMARY: 'base',
  SECONDARY: 'accent',
  TERTIARY: 'variant',
  IDENTICAL: 'variant',
};

const byCodePoints = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function comparatorFor(spec: SortSpec): (a: string, b: string) => number {
  const collator = new Intl.Collator(spec.locale, { sensitivity: SENSITIVITY[spec.strength], usage: 'sort' });
  const compare = spec.strength === 'IDENTICAL' ? (a: string, b: string) => collator.compare(a, b) || byCodePoints(a, b) : collator.compare;
  return spec.order === 'DESCENDING' ? (a, b) => compare(b, a) : compare;
}

/** Items in their new order; `items` must be in their current order (ties keep it). */
export function sortByValue<T extends { value: string }>(items: readonly T[], spec: SortSpec): T[] {
  const compare = comparatorFor(spec);
  // Array.prototype.sort is stable (ES2019), which gives the tie rule above.
  return [...items].sort((a, b) => compare(a.value, b.value));
}

/** The canonical form of a language tag, or undefined when it is not a well-formed BCP 47 tag. */
export function canonicalLocale(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}
