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

const NAV = [
  { id: 'fields', label: 'Fields', testId: 'nav-fields', admin: false },
  { id: 'admin', label: 'Administration', testId: 'nav-admin', admin: true },
  { id: 'maintenance', label: 'Maintenance', testId: 'nav-maintenance', admin: true },
  { id: 'codeboxes', label: 'Code boxes', testId: 'nav-codeboxes', admin: false },
  { id: 'tokens', label: 'Access tokens', testId: 'nav-tokens', admin: false },
] as const;

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

  const section = route[0] ?? 'fields';
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
        <button type="button" data-testid="logout" onClick={logout}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Screen route={route} me={me} />
      </main>
    </div>
  );
}

function Screen({ route, me }: { route: string[]; me: Me }) {
  const [section = 'fields', a, b, c] = route;
  switch (section) {
    case 'fields':
      return a ? <FieldScreen key={`${a}/${b ?? ''}`} fieldId={a} contextId={b} /> : <FieldsScreen />;
    case 'admin':
      if (!me.isAdmin) return <ErrorMessage error="This screen is for administrators only." />;
      return a ? <AdminFieldScreen key={a} fieldId={a} /> : <AdminFieldsScreen />;
    case 'maintenance':
      // Not refused here: the API answers anyone but an administrator with 403, and the screen shows that answer.
      return <MaintenanceScreen key={a ?? ''} view={a} />;
    case 'tokens':
      return <TokensScreen me={me} />;
    case 'codeboxes':
      return <CodeboxesScreen key={`${a ?? ''}/${b ?? ''}/${c ?? ''}`} me={me} spaceKey={a} contentId={b} />;
    default:
      return <ErrorMessage error="There is no such screen." />;
  }
}
