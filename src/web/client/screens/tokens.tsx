import { useEffect, useState } from 'preact/hooks';
import { api, baseUrl, errorText } from '../api.ts';
import type { Me } from '../session.ts';
import { CopyLine, ErrorMessage, Loading } from '../ui.tsx';
import { PAT, type TokenRecord } from '../directory.ts';
import { TokenTable } from './token-table.tsx';

type Token = TokenRecord;

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
      {tokens && <TokenTable tokens={tokens} owner={me.displayName} onChanged={() => (setError(undefined), setVersion((v) => v + 1))} onError={setError} />}
    </section>
  );
}
