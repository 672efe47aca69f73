import { api, errorText } from '../api.ts';
import { askConfirm } from '../confirm.tsx';
import { PAT, type TokenRecord } from '../directory.ts';
import { when } from '../dates.ts';
import { InfoMessage } from '../ui.tsx';

/**
 * Tokens with their creation, expiry and last use, each with Revoke (asked first): the own tokens' screen and an
 * administrator's view of a user (`owner`). Both revoke through the owner's path, which administrators may use.
 */
export function TokenTable({ tokens, owner, onChanged, onError }: { tokens: TokenRecord[]; owner: string; onChanged: () => void; onError: (m: string) => void }) {
  if (tokens.length === 0) return <InfoMessage>{owner} has no access tokens.</InfoMessage>;
  const hasScopes = tokens.some((t) => t.scope !== undefined);
  const revoke = async (t: TokenRecord) => {
    const ok = await askConfirm({
      title: `Revoke the token “${t.name}”?`,
      message: `The token ${t.name} of ${owner} is removed. Scripts using it stop working at once; it cannot be restored (a new token can be created).`,
      confirmLabel: 'Revoke token',
    });
    if (!ok) return;
    try {
      await api('DELETE', `${PAT}/${t.id}`);
      onChanged();
    } catch (err) {
      onError(errorText(err));
    }
  };
  return (
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
            <td class="wide">{t.lastAccessedAt ? when(t.lastAccessedAt) : 'never'}</td>
            <td>
              <button type="button" class="small danger" data-testid="token-revoke" onClick={() => void revoke(t)} aria-label={`Revoke ${t.name}`}>
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
