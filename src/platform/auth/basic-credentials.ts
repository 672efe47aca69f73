/**
 * RFC 7617 Basic credentials. Our own parser because passport-http splits at every colon and so truncates
 * passwords that contain one (engineering notes B.3). The user-id ends at the FIRST colon.
 */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** Longest Authorization value we look at; longer ones are refused as malformed, not parsed. */
export const MAX_AUTHORIZATION_LENGTH = 8192;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Returns the credentials, or undefined for anything that is not a well-formed Basic header. */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined || header.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  const match = /^basic +(\S+) *$/i.exec(header);
  if (!match) return undefined;
  const encoded = match[1]!;
  if (encoded.length % 4 === 1 || !BASE64.test(encoded)) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The token of a `Bearer <token>` header (RFC 6750 token68 characters), or undefined. */
export function parseBearerAuthorization(header: string | undefined): string | undefined {
  if (header === undefined || header.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  const match = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match ? match[1] : undefined;
}
