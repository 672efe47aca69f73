// Which restriction an imported page or blog post gets, so that it is never readable by more people here than
// at the source (issue 41). Its own restriction alone is enough while its ancestors come along (the view rule
// walks them here as the source did). When an ancestor is not imported, the item carries that ancestor's
// restriction too, and one restriction here must stand for all of them: a reader must pass every one.
import type { SourceRestriction, SourceContent } from './space-model.ts';

const lower = (s: string) => s.toLowerCase();

/**
 * The one restriction that lets through only people who pass all of `sets`: the groups every set names, and the
 * users who, in every set, are named or are a member (at the source) of a group it names. Never wider than
 * any set; narrower only where group membership would have to be guessed. Empty lists: nobody (hidden).
 */
export function intersectRestrictions(sets: readonly SourceRestriction[], membersOf: (group: string) => readonly string[]): SourceRestriction {
  if (sets.length === 1) return { users: [...sets[0]!.users], groups: [...sets[0]!.groups] };
  const passes = (user: string, set: SourceRestriction) =>
    set.users.some((u) => lower(u) === lower(user)) || set.groups.some((g) => membersOf(g).some((m) => lower(m) === lower(user)));
  const candidates = new Map<string, string>();
  for (const set of sets) {
    for (const u of set.users) candidates.set(lower(u), u);
    for (const g of set.groups) for (const m of membersOf(g)) candidates.set(lower(m), m);
  }
  const users = [...candidates.values()].filter((u) => sets.every((set) => passes(u, set)));
  const groups = sets[0]!.groups.filter((g) => sets.every((set) => set.groups.some((h) => lower(h) === lower(g))));
  return { users: users.sort(), groups };
}

/** The item's restriction here: undefined when neither it nor a left-out ancestor was restricted. */
export function effectiveRestriction(item: SourceContent, membersOf: (group: string) => readonly string[]): SourceRestriction | undefined {
  const sets = [...(item.viewRestrictions ? [item.viewRestrictions] : []), ...(item.inheritedRestrictions ?? [])];
  return sets.length === 0 ? undefined : intersectRestrictions(sets, membersOf);
}
