import { useEffect, useState } from 'preact/hooks';
import { api, baseUrl, errorText } from '../api.ts';
import type { Me } from '../session.ts';
import { CopyLine, ErrorMessage, Loading, Notice } from '../ui.tsx';

interface Token {
  id: number;
  name: string;
  createdAt: string;
  expiringAt?: string;
  lastAccessedAt?: string;
  /** Only on servers with read-only tokens. */
  scope?: 'read' | 'write';
}

const PAT = '/rest/pat/latest/tokens';
const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/** Personal access tokens: create (name, expiry, scope), list, revoke; the raw token is shown once. */
export function TokensScreen({ me }: { me: Me }) {
  const [tokens, setTokens] = useState<Token[]>();
  const [error, setError] = useState<string>();
  const [name, setName] = useState('');
  const [days, setDays] = useState('90');
  const [scope, setScope] = useState<'write' | 'read'>('write');
  const [created, setCreated] = useState<{ name: string; raw: string }>();
  const [version, setVersion] = useState(0);

  useEffect(() => {
    api<Token[]>('GET', PAT).then(setTokens, (e) => setError(errorText(e)));
  }, [version]);

  const create = async (e: Event) => {
    e.preventDefault();
    setCreated(undefined);
    try {
      const body: Record<string, unknown> = { name };
      if (days.trim() !== '') body.expirationDuration = Number(days);
      if (scope === 'read') body.scope = 'read';
      const t = await api<Token & { rawToken: string }>('POST', PAT, body);
      if (scope === 'read' && t.scope !== 'read') {
        // A server without read-only tokens ignores `scope`: such a token could write, so it must not live.
        await api('DELETE', `${PAT}/${t.id}`);
        throw new Error('This server does not offer read-only tokens yet; nothing was created.');
      }
      setCreated({ name: t.name, raw: t.rawToken });
      setName('');
      setError(undefined);
    } catch (err) {
      setError(errorText(err));
    }
    setVersion((v) => v + 1);
  };

  const revoke = async (t: Token) => {
    if (!confirm(`Revoke the token "${t.name}"? Scripts using it stop working at once.`)) return;
    try {
      await api('DELETE', `${PAT}/${t.id}`);
      setError(undefined);
    } catch (err) {
      setError(errorText(err));
    }
    setVersion((v) => v + 1);
  };

  const hasScopes = tokens?.some((t) => t.scope !== undefined) ?? false;
  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">Personal access tokens</h1>
      <p class="muted">A token stands for you in scripts: send it as <code>Authorization: Bearer …</code>. Revoke it when it is no longer needed.</p>
      <form class="card token-form" onSubmit={create}>
        <label>
          Name
          <input data-testid="token-create-name" value={name} required maxLength={255} placeholder="e.g. provisioning" onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Expires after (days, empty: never)
          <input data-testid="token-create-days" type="number" min={1} max={36500} value={days} onInput={(e) => setDays(e.currentTarget.value)} />
        </label>
        <label>
          Rights
          <select data-testid="token-create-scope" value={scope} onChange={(e) => setScope(e.currentTarget.value as 'read' | 'write')}>
            <option value="write">Read and write</option>
            <option value="read">Read only (GET)</option>
          </select>
        </label>
        <button type="submit" class="primary" data-testid="token-create-submit">
          Create token
        </button>
      </form>
      {created && (
        <div class="card created" role="status">
          <p>
            The token <strong>{created.name}</strong> was created. Copy it now: it is shown only this once.
          </p>
          <CopyLine text={created.raw} testId="token-raw" label="the new token" />
          <CopyLine text={`curl -H "Authorization: Bearer ${created.raw}" ${baseUrl}/rest/api/2/myself`} label="a test curl line" />
          <button type="button" class="small" onClick={() => setCreated(undefined)}>
            Done, hide it
          </button>
        </div>
      )}
      <ErrorMessage error={error} />
      {!tokens && !error && <Loading />}
      {tokens && tokens.length === 0 && <Notice>{me.displayName} has no tokens yet.</Notice>}
      {tokens && tokens.length > 0 && (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              {hasScopes && <th scope="col">Rights</th>}
              <th scope="col" class="wide">Created</th>
              <th scope="col">Expires</th>
              <th scope="col" class="wide">Last used</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id} data-testid="token-row" data-token-id={t.id}>
                <td>{t.name}</td>
                {hasScopes && <td>{t.scope === 'read' ? 'read only' : 'read and write'}</td>}
                <td class="wide">{when(t.createdAt)}</td>
                <td>{t.expiringAt ? when(t.expiringAt) : 'never'}</td>
                <td class="wide">{when(t.lastAccessedAt)}</td>
                <td>
                  <button type="button" class="small danger" data-testid="token-revoke" onClick={() => void revoke(t)} aria-label={`Revoke ${t.name}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
