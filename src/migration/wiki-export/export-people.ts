// The people of a space export: the wiki's user records (ConfluenceUserImpl, by the key that content and
// restrictions use), the directory's users and groups (InternalUser and InternalGroup, or the older User and
// Group) and their memberships (by object reference, HibernateMembership, or by name, InternalMembership).
// Only what the space writer needs of them is kept: names, display names, emails, the active flag, members.
import type { ExportObject, ObjectRef, PropValue } from './object-reader.ts';

export interface DirectoryUser {
  name: string;
  displayName?: string;
  email?: string;
  active?: boolean;
}

const str = (v: PropValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const refOf = (v: PropValue | undefined): ObjectRef | undefined => (typeof v === 'object' && v.id ? v : undefined);

export class ExportPeople {
  /** ConfluenceUserImpl by key: the user name (and email) that content and restrictions mean. */
  readonly userByKey = new Map<string, { name: string; email?: string }>();
  /** Directory users by lower-case name. */
  readonly directoryUsers = new Map<string, DirectoryUser>();
  private readonly userNameById = new Map<string, string>();
  private readonly groupNameById = new Map<string, string>();
  private readonly memberships: { group: string; user: string; groupById: boolean; userById: boolean }[] = [];
  private members: Map<string, Set<string>> | undefined;

  /** Takes the object when it is one of the people's classes; answers whether it was. */
  add(o: ExportObject): boolean {
    const p = o.props;
    switch (o.cls) {
      case 'ConfluenceUserImpl': {
        const name = str(p.get('name')) ?? str(p.get('lowerName'));
        if (name) this.userByKey.set(o.id, { name, email: str(p.get('email')) || undefined });
        return true;
      }
      case 'User':
      case 'InternalUser': {
        const name = str(p.get('name'));
        if (!name) return true;
        this.userNameById.set(o.id, name);
        const active = str(p.get('active'))?.trim();
        this.directoryUsers.set(name.toLowerCase(), {
          name,
          displayName: str(p.get('displayName')) || str(p.get('fullName')) || undefined,
          email: str(p.get('emailAddress')) || str(p.get('email')) || undefined,
          active: active === undefined || active === '' ? undefined : active === 'true',
        });
        return true;
      }
      case 'Group':
      case 'InternalGroup': {
        const name = str(p.get('name'));
        if (name) this.groupNameById.set(o.id, name);
        return true;
      }
      case 'HibernateMembership':
      case 'InternalMembership': {
        const type = str(p.get('membershipType'));
        if (type && type !== 'GROUP_USER') return true; // a group inside a group: not a user's membership
        const groupRef = refOf(p.get('parentGroup'));
        const userRef = refOf(p.get('childUser'));
        const group = groupRef?.id ?? str(p.get('parentName'));
        const user = userRef?.id ?? str(p.get('childName'));
        if (group && user) this.memberships.push({ group, user, groupById: !!groupRef, userById: !!userRef });
        return true;
      }
      default:
        return false;
    }
  }

  /** The user names of a group's members (resolved once, on first use). */
  membersOf(group: string): string[] {
    if (!this.members) {
      this.members = new Map();
      for (const m of this.memberships) {
        const g = m.groupById ? this.groupNameById.get(m.group) : m.group;
        const u = m.userById ? this.userNameById.get(m.user) : m.user;
        if (!g || !u) continue;
        const set = this.members.get(g) ?? new Set<string>();
        set.add(u);
        this.members.set(g, set);
      }
    }
    return [...(this.members.get(group) ?? [])].sort();
  }
}
