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

const NAV = [
  { id: 'home', label: 'Home', testId: 'nav-admin-home', admin: true },
  { id: 'fields', label: 'Fields', testId: 'nav-fields', admin: false },
  { id: 'admin', label: 'Administration', testId: 'nav-admin', admin: true },
  { id: 'users', label: 'Users', testId: 'nav-users', admin: true },
  { id: 'groups', label: 'Groups', testId: 'nav-groups', admin: true },
  { id: 'spaces', label: 'Spaces', testId: 'nav-spaces', admin: true },
  { id: 'maintenance', label: 'Maintenance', testId: 'nav-maintenance', admin: true },
  { id: 'webhooks', label: 'Webhooks', testId: 'nav-webhooks', admin: true },
  { id: 'codeboxes', label: 'Code boxes', testId: 'nav-codeboxes', admin: false },
  { id: 'tokens', label: 'Access tokens', testId: 'nav-tokens', admin: false },
  { id: 'password', label: 'My password', testId: 'nav-password', admin: false },
] as const;

/** An administrator starts on the fields with their editors; anyone else on the fields it may edit. */
const homeOf = (me: Me) => (me.isAdmin ? 'home' : 'fields');

export function App() {
  // undefined: still asking the server; null: signed out.
  const [me, setMe] = useState<Me | null | undefined>(undefined);
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
        <nav aria-label="Main">
          {NAV.filter((n) => !n.admin || me.isAdmin).map((n) => (
            <a key={n.id} href={href(n.id)} data-testid={n.testId} aria-current={section === n.id ? 'page' : undefined}>
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
