import { hash, randomBytes } from 'node:crypto';

/** A new raw personal access token: 33 random bytes, 44 URL-safe characters. Shown once, never stored. */
export function generateRawToken(): string {
  return randomBytes(33).toString('base64url');
}

/** What the database keeps and looks tokens up by. */
export function hashToken(raw: string): string {
  return hash('sha256', raw, 'hex');
}
