import { useEffect, useState } from 'preact/hooks';
import { setUnauthorizedHandler } from './api.ts';
import { href, useRoute } from './router.ts';
import { loadMe, signOut, type Me } from './session.ts';
import { Loading, ErrorMessage } from './ui.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { FieldsScreen } from './screens/fields.tsx';
import { FieldScreen } from './screens/field.tsx';
import { AdminFieldsScreen } from './screens/admin-fields.tsx';
import { AdminFieldScreen } from './screens/admin-field.tsx';
import { TokensScreen } from './screens/tokens.tsx';
import { CodeboxesScreen } from './screens/codeboxes.tsx';
import { MaintenanceScreen } from './screens/maintenance.tsx';
import { WebhooksScreen } from './screens/webhooks.tsx';
import { AdminHomeScreen } from './screens/admin-home.tsx';
import { UsersScreen } from './screens/users.tsx';
import { UserScreen } from './screens/user.tsx';
import { GroupsScreen } from './screens/groups.tsx';
import { GroupScreen } from './screens/group.tsx';
import { PasswordScreen } from './screens/password.tsx';
import { SpacesScreen } from './screens/spaces.tsx';
import { SpaceScreen } from './screens/space.tsx';
import { ConfirmHost } from './confirm.tsx';
import { ThemeToggle } from './theme.tsx';

/**
 * The main menu, as data (a screen adds one entry here). `who`: `admin` for administrators only, `user` for those
 * who are not (an administrator's fields, with their editors and administration, are all on its home), `all`.
 */
const NAV: readonly { id: string; label: string; testId: string; who: 'admin' | 'user' | 'all' }[] = [
  { id: 'home', label: 'Fields', testId: 'nav-admin-home', who: 'admin' },
  { id: 'fields', label: 'Fields', testId: 'nav-fields', who: 'user' },
  { id: 'users', label: 'Users', testId: 'nav-users', who: 'admin' },
  { id: 'groups', label: 'Groups', testId: 'nav-groups', who: 'admin' },
  { id: 'spaces', label: 'Spaces', testId: 'nav-spaces', who: 'admin' },
  { id: 'maintenance', label: 'Maintenance', testId: 'nav-maintenance', who: 'admin' },
  { id: 'webhooks', label: 'Webhooks', testId: 'nav-webhooks', who: 'admin' },
  { id: 'codeboxes', label: 'Code boxes', testId: 'nav-codeboxes', who: 'all' },
  { id: 'tokens', label: 'Access tokens', testId: 'nav-tokens', who: 'all' },
  { id: 'password', label: 'My password', testId: 'nav-password', who: 'all' },
];

/** The screens an entry stands for: an administrator's home covers the field screens it links to. */
const SECTIONS: Record<string, readonly string[]> = { home: ['home', 'admin', 'fields'] };

/** An administrator starts on the fields with their editors; anyone else on the fields it may edit. */
const homeOf = (me: Me) => (me.isAdmin ? 'home' : 'fields');

export function App() {
  // undefined: still asking the server; null: signed out.
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  // The menu at narrow widths: closed behind its button until opened, closed again by choosing an entry.
  const [menuOpen, setMenuOpen] = useState(false);
  const route = useRoute();

  const refresh = () => loadMe().then((m) => setMe(m ?? null), () => setMe(null));
  useEffect(() => {
    setUnauthorizedHandler(() => setMe(null));
    void refresh();
  }, []);

  if (me === undefined) return <Loading />;
  if (me === null) return <SignIn onSignedIn={() => void refresh()} />;

  const section = route[0] ?? homeOf(me);
  const logout = async () => {
    await signOut().catch(() => undefined);
    location.hash = '';
    setMe(null);
  };

  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">addon-pair</span>
        <button
          type="button"
          class="menu-button"
          data-testid="nav-menu"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <nav aria-label="Main" id="main-nav" class={menuOpen ? 'open' : undefined} onClick={() => setMenuOpen(false)}>
          {NAV.filter((n) => n.who === 'all' || (n.who === 'admin') === me.isAdmin).map((n) => (
            <a key={n.id} href={href(n.id)} data-testid={n.testId} aria-current={(SECTIONS[n.id] ?? [n.id]).includes(section) ? 'page' : undefined}>
              {n.label}
            </a>
          ))}
        </nav>
        <span class="who" title={me.name}>
          {me.displayName}
        </span>
        <ThemeToggle />
        <button type="button" data-testid="logout" onClick={logout}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Screen route={route} me={me} />
      </main>
      <ConfirmHost />
    </div>
  );
}

function Screen({ route, me }: { route: string[]; me: Me }) {
  const [section = homeOf(me), a, b, c] = route;
  const adminOnly = <ErrorMessage error="This screen is for administrators only." />;
  switch (section) {
    case 'home':
      return me.isAdmin ? <AdminHomeScreen me={me} /> : adminOnly;
    case 'users':
      if (!me.isAdmin) return adminOnly;
      return a ? <UserScreen key={a} name={a} me={me} /> : <UsersScreen />;
    case 'groups':
      if (!me.isAdmin) return adminOnly;
      return a ? <GroupScreen key={a} name={a} /> : <GroupsScreen />;
    case 'password':
      return <PasswordScreen me={me} />;
    case 'spaces':
      if (!me.isAdmin) return adminOnly;
      return a ? <SpaceScreen key={a} spaceKey={a} /> : <SpacesScreen />;
    case 'fields':
      return a ? <FieldScreen key={`${a}/${b ?? ''}`} fieldId={a} contextId={b} /> : <FieldsScreen isAdmin={me.isAdmin} />;
    case 'admin':
      if (!me.isAdmin) return <ErrorMessage error="This screen is for administrators only." />;
      return a ? <AdminFieldScreen key={a} fieldId={a} /> : <AdminFieldsScreen />;
    case 'maintenance':
      // Not refused here: the API answers anyone but an administrator with 403, and the screen shows that answer.
      return <MaintenanceScreen key={a ?? ''} view={a} />;
    case 'webhooks':
      // As maintenance: the API answers anyone but an administrator with 403, and the screen shows that answer.
      return <WebhooksScreen key={a ?? ''} id={a} />;
    case 'tokens':
      return <TokensScreen me={me} />;
    case 'codeboxes':
      return <CodeboxesScreen key={`${a ?? ''}/${b ?? ''}/${c ?? ''}`} me={me} spaceKey={a} contentId={b} />;
    default:
      return <ErrorMessage error="There is no such screen." />;
  }
}
