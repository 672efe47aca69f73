import { api, errorText } from '../api.ts';
import { askConfirm } from '../confirm.tsx';
import { PAT, type TokenRecord } from '../directory.ts';
import { when } from '../dates.ts';
import { Cell, InfoMessage, ListTable } from '../ui.tsx';

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
  // One card per token at phone width (table.stack), every column named in it: a name such as "provisioning" never
  // breaks mid-word there, as it did in five columns sharing 390 px.
  const columns = ['Name', ...(hasScopes ? ['Rights'] : []), 'Created', 'Expires', 'Last used', ''];
  return (
    <ListTable class="list stack" columns={columns}>
      {tokens.map((t) => (
        <tr key={t.id} data-testid="token-row" data-token-id={t.id}>
          <Cell label="Name">{t.name}</Cell>
          {hasScopes && <Cell label="Rights">{t.scope === 'read' ? 'read only' : 'read and write'}</Cell>}
          <Cell label="Created">{when(t.createdAt)}</Cell>
          <Cell label="Expires">{t.expiringAt ? when(t.expiringAt) : 'never'}</Cell>
          <Cell label="Last used">{t.lastAccessedAt ? when(t.lastAccessedAt) : 'never'}</Cell>
          <Cell label="">
            <button type="button" class="small danger" data-testid="token-revoke" onClick={() => void revoke(t)} aria-label={`Revoke ${t.name}`}>
              Revoke
            </button>
          </Cell>
        </tr>
      ))}
    </ListTable>
  );
}
