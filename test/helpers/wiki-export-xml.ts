// The objects of a wiki space export's entities.xml, as the wiki writes them (see wiki-export-builder.ts for the
// description they come from). Each method answers the objects of one thing, one string per object, so the
// builder can reorder them and a bench can stream any number of them.
import type {
  ExportComment,
  ExportGroup,
  ExportPage,
  ExportQuirks,
  ExportRestriction,
  ExportSpace,
  ExportUser,
} from './wiki-export-builder.ts';

const PAGES = 'com.atlassian.confluence.pages';
const CORE = 'com.atlassian.confluence.core';
const SPACES = 'com.atlassian.confluence.spaces';
const SECURITY = 'com.atlassian.confluence.security';
const USERS = 'com.atlassian.confluence.user';
const BIG = 2 ** 40;

type Prop = [name: string, value: string];

export class ExportXmlWriter {
  private nextId: number;
  private readonly internalIds = new Map<string, number>();
  private readonly groupIds = new Map<string, number>();

  constructor(private readonly quirks: ExportQuirks) {
    this.nextId = (quirks.bigIds ? BIG : 0) + 900_000_000;
  }

  header(): string {
    return '<?xml version="1.0" encoding="UTF-8"?>\n<hibernate-generic datetime="2024-01-02 10:11:12">\n';
  }

  footer(): string {
    return '</hibernate-generic>\n';
  }

  /** An id of the description as written (plus the offset when `bigIds`). */
  id(id: number): number {
    return this.quirks.bigIds ? id + BIG : id;
  }

  private fresh(): number {
    return this.nextId++;
  }

  confluenceUser(name: string, u: ExportUser | undefined): string[] {
    const props: Prop[] = [text('name', name), text('lowerName', name.toLowerCase())];
    if (u?.email) props.push(text('email', u.email));
    return [object('ConfluenceUserImpl', USERS, `<id name="key">${cdata(userKey(name))}</id>`, props)];
  }

  internalUser(u: ExportUser): string[] {
    const id = this.fresh();
    this.internalIds.set(u.name, id);
    const props: Prop[] = [text('name', u.name), text('lowerName', u.name.toLowerCase())];
    props.push(['active', `<property name="active">${u.active === false ? 'false' : 'true'}</property>`]);
    if (u.displayName) props.push(text('displayName', u.displayName));
    if (u.email) props.push(text('emailAddress', u.email));
    const cls = this.quirks.legacyUserClasses ? 'User' : 'InternalUser';
    return [object(cls, 'com.atlassian.crowd.model.user', idOf(id), props)];
  }

  group(g: ExportGroup): string[] {
    const id = this.fresh();
    this.groupIds.set(g.name, id);
    const cls = this.quirks.legacyUserClasses ? 'Group' : 'InternalGroup';
    const out = [object(cls, 'com.atlassian.crowd.model.group', idOf(id), [text('name', g.name)])];
    for (const member of g.members) {
      const props: Prop[] =
        this.quirks.membership === 'internal'
          ? [text('parentName', g.name), text('childName', member), text('membershipType', 'GROUP_USER')]
          : [
              ref('parentGroup', cls, 'com.atlassian.crowd.model.group', id),
              ref('childUser', this.quirks.legacyUserClasses ? 'User' : 'InternalUser', 'com.atlassian.crowd.model.user',
                this.internalIds.get(member) ?? 0),
              text('membershipType', 'GROUP_USER'),
            ];
      const membershipCls = this.quirks.membership === 'internal' ? 'InternalMembership' : 'HibernateMembership';
      out.push(object(membershipCls, 'com.atlassian.crowd.embedded.hibernate2', idOf(this.fresh()), props));
    }
    return out;
  }

  space(s: ExportSpace): string[] {
    const descId = this.fresh();
    const props: Prop[] = [text('key', s.key), text('name', s.name), ref('description', 'SpaceDescription', SPACES, descId)];
    if (s.homePageId !== undefined) props.push(ref('homePage', 'Page', PAGES, this.id(s.homePageId)));
    props.push(text('spaceType', 'global'), text('spaceStatus', 'CURRENT'));
    const out = [object('Space', SPACES, idOf(this.id(s.id)), props)];
    const bodyId = this.fresh();
    out.push(
      object('SpaceDescription', SPACES, idOf(descId), [
        ref('space', 'Space', SPACES, this.id(s.id)),
        collection('bodyContents', 'BodyContent', CORE, [bodyId]),
      ]),
      this.body(bodyId, s.description ?? '', 'SpaceDescription', descId),
    );
    return out;
  }

  /** A page or blog post with its body, restrictions, older versions, attachments and comments. */
  content(cls: 'Page' | 'BlogPost', spaceId: number, c: ExportPage, parentId: number | undefined): string[] {
    const id = this.id(c.id);
    const out = this.contentObjects(cls, id, spaceId, c, parentId, undefined);
    for (let v = 1; v <= (c.historicalVersions ?? 0); v++) {
      const old = { ...c, version: v, status: 'current' as const, title: `${c.title} (v${v})`, body: `<p>v${v}</p>` };
      out.push(...this.contentObjects(cls, this.fresh(), spaceId, old, parentId, id));
    }
    for (let a = 0; a < (c.attachments ?? 0); a++) {
      out.push(
        object('Attachment', PAGES, idOf(this.fresh()), [
          text('title', `file-${a}.png`),
          ref('containerContent', cls, PAGES, id),
          text('contentStatus', 'current'),
        ]),
      );
    }
    if (c.view) out.push(...this.restriction('View', cls, id, c.view));
    if (c.edit) out.push(...this.restriction('Edit', cls, id, c.edit));
    for (const m of c.comments ?? []) out.push(...this.comment(cls, id, m));
    return out;
  }

  private contentObjects(
    cls: string,
    id: number,
    spaceId: number,
    c: ExportPage,
    parentId: number | undefined,
    originalId: number | undefined,
  ): string[] {
    const bodyId = this.fresh();
    const props: Prop[] = [this.title(c.title), ref('space', 'Space', SPACES, this.id(spaceId))];
    if (parentId !== undefined) props.push(ref('parent', 'Page', PAGES, this.id(parentId)));
    if (c.position !== undefined) props.push(text('position', String(c.position)));
    props.push(...this.common(c, c.version ?? 1));
    if (originalId !== undefined) props.push(ref('originalVersion', cls, PAGES, originalId));
    if (!(c.bodyByBackReferenceOnly || this.quirks.bodiesByBackReferenceOnly)) {
      props.push(collection('bodyContents', 'BodyContent', CORE, [bodyId]));
    }
    return [object(cls, PAGES, idOf(id), props), this.body(bodyId, c.body, cls, id)];
  }

  private comment(containerCls: string, containerId: number, m: ExportComment): string[] {
    const id = this.id(m.id);
    const bodyId = this.fresh();
    const props: Prop[] = [ref('containerContent', containerCls, PAGES, containerId), ...this.common(m, 1)];
    props.push(collection('bodyContents', 'BodyContent', CORE, [bodyId]));
    return [object('Comment', PAGES, idOf(id), props), this.body(bodyId, m.body, 'Comment', id)];
  }

  private common(c: ExportComment & { version?: number }, version: number): Prop[] {
    const props: Prop[] = [text('version', String(version))];
    if (c.creator && this.quirks.userReferences === 'name') props.push(text('creatorName', c.creator), text('lastModifierName', c.creator));
    else if (c.creator) {
      props.push(refKey('creator', userKey(c.creator)), refKey('lastModifier', userKey(c.creator)));
    }
    if (c.created) props.push(text('creationDate', dateText(c.created)));
    if (c.modified ?? c.created) props.push(text('lastModificationDate', dateText((c.modified ?? c.created)!)));
    props.push(text('contentStatus', c.status ?? 'current'));
    return props;
  }

  private body(bodyId: number, body: string, cls: string, contentId: number): string {
    const value = this.quirks.forbiddenChars ? `\u000b${body}` : body;
    const encoded =
      this.quirks.bodyEncoding === 'escaped' ? escapeText(value) : cdata(value, this.quirks.cdataClose ?? 'split');
    return object('BodyContent', CORE, idOf(bodyId), [
      ['body', `<property name="body">${encoded}</property>`],
      ref('content', cls, cls === 'SpaceDescription' ? SPACES : PAGES, contentId),
      text('bodyType', '2'),
    ]);
  }

  private title(title: string): Prop {
    const t = this.quirks.forbiddenChars ? `${title.slice(0, 1)}\u0001${title.slice(1)}` : title;
    return ['title', `<property name="title">${cdata(t, this.quirks.cdataClose ?? 'split')}</property>`];
  }

  private restriction(type: 'View' | 'Edit', cls: string, contentId: number, r: ExportRestriction): string[] {
    const setId = this.fresh();
    const permissions = [
      ...(r.users ?? []).map((u) => this.userSubject(u)),
      ...(r.groups ?? []).map((g) => text('groupName', g)[1]),
    ].map((subject) => ({ id: this.fresh(), subject }));
    const out = [
      object('ContentPermissionSet', SECURITY, idOf(setId), [
        text('type', type),
        ref('owningContent', cls, PAGES, contentId),
        collection('contentPermissions', 'ContentPermission', SECURITY, permissions.map((p) => p.id)),
      ]),
    ];
    for (const p of permissions) {
      out.push(
        object('ContentPermission', SECURITY, idOf(p.id), [
          text('type', type),
          ['subject', p.subject],
          ref('owningSet', 'ContentPermissionSet', SECURITY, setId),
        ]),
      );
    }
    return out;
  }

  /** A permission's user: by key, by name (4.x), or both, as `userReferences` says. */
  private userSubject(name: string): string {
    const byKey = refKey('userSubject', userKey(name))[1];
    const byName = text('userName', name)[1];
    const how = this.quirks.userReferences ?? 'key';
    return how === 'key' ? byKey : how === 'name' ? byName : `${byKey}\n${byName}`;
  }

  /** Objects of classes a space export holds and the reader does not import. */
  unknownObjects(): string[] {
    return [
      object('Label', 'com.atlassian.confluence.labels', idOf(this.fresh()), [text('name', 'ops')]),
      object('OutgoingLink', 'com.atlassian.confluence.links', idOf(this.fresh()), [text('destinationPageTitle', 'x')]),
    ];
  }
}

/** The ConfluenceUserImpl key the builder gives a user name (32 hex digits, as the wiki's keys are). */
export function userKey(name: string): string {
  return Buffer.from(name, 'utf8').toString('hex').padEnd(32, '0').slice(0, 32);
}

function object(cls: string, pkg: string, idXml: string, props: Prop[]): string {
  return `<object class="${cls}" package="${pkg}">\n${idXml}\n${props.map((p) => p[1]).join('\n')}\n</object>\n`;
}

const idOf = (id: number) => `<id name="id">${id}</id>`;

const text = (name: string, value: string): Prop => [name, `<property name="${name}">${cdata(value)}</property>`];

const ref = (name: string, cls: string, pkg: string, id: number): Prop => [
  name,
  `<property name="${name}" class="${cls}" package="${pkg}"><id name="id">${id}</id></property>`,
];

const refKey = (name: string, key: string): Prop => [
  name,
  `<property name="${name}" class="ConfluenceUserImpl" package="${USERS}"><id name="key">${cdata(key)}</id></property>`,
];

const collection = (name: string, cls: string, pkg: string, ids: number[]): Prop => [
  name,
  `<collection name="${name}" class="java.util.Collection">${ids
    .map((i) => `<element class="${cls}" package="${pkg}"><id name="id">${i}</id></element>`)
    .join('')}</collection>`,
];

function cdata(value: string, close: 'split' | 'space' = 'split'): string {
  const inner = value.replaceAll(']]>', close === 'space' ? ']] >' : ']]]]><![CDATA[>');
  return `<![CDATA[${inner}]]>`;
}

function escapeText(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The wiki's date format: `2024-01-02 10:11:12.123` (UTC here). */
function dateText(d: Date): string {
  return d.toISOString().replace('T', ' ').replace('Z', '');
}
