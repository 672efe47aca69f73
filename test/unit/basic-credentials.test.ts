import { describe, expect, it } from 'vitest';
import { MAX_AUTHORIZATION_LENGTH, parseBasicAuthorization, parseBearerAuthorization } from '../../src/platform/auth/basic-credentials.ts';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('parseBasicAuthorization', () => {
  it('splits at the first colon, so passwords may contain colons', () => {
    expect(parseBasicAuthorization(`Basic ${b64('alice:pw:with:colons')}`)).toEqual({ username: 'alice', password: 'pw:with:colons' });
  });

  it('accepts the scheme in any case and UTF-8 credentials', () => {
    expect(parseBasicAuthorization(`bAsIc ${b64('jürgen:päss')}`)).toEqual({ username: 'jürgen', password: 'päss' });
  });

  it('keeps an empty password (the login then fails normally)', () => {
    expect(parseBasicAuthorization(`Basic ${b64('alice:')}`)).toEqual({ username: 'alice', password: '' });
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['scheme only', 'Basic'],
    ['scheme and space', 'Basic '],
    ['no colon', `Basic ${b64('alicepw')}`],
    ['empty username', `Basic ${b64(':pw')}`],
    ['not base64', 'Basic !!!notbase64'],
    ['bad length', 'Basic YWJjZ'],
    ['invalid UTF-8', `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`],
    ['control character', `Basic ${b64('al\u0000ice:pw')}`],
    ['unknown scheme', `Digest ${b64('alice:pw')}`],
    ['scheme as a prefix of another word', `Basically ${b64('alice:pw')}`],
    ['two credentials', `Basic ${b64('a:b')} ${b64('c:d')}`],
    ['huge', `Basic ${'A'.repeat(MAX_AUTHORIZATION_LENGTH)}`],
  ])('refuses %s', (_label, header) => {
    expect(parseBasicAuthorization(header)).toBeUndefined();
  });
});

describe('parseBearerAuthorization', () => {
  it('returns the token', () => {
    expect(parseBearerAuthorization('Bearer abc-DEF_123.~+/=')).toBe('abc-DEF_123.~+/=');
    expect(parseBearerAuthorization('bearer tok')).toBe('tok');
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Bearer a b', 'Bearer tök', `Bearer ${'a'.repeat(MAX_AUTHORIZATION_LENGTH)}`, 'Token abc'])(
    'refuses %j',
    (header) => {
      expect(parseBearerAuthorization(header)).toBeUndefined();
    },
  );
});
