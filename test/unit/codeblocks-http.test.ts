import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/platform/http/app-error.ts';
import { appErrorBody } from '../../src/codeblocks/error-render.ts';
import { codeblocksError } from '../../src/codeblocks/download.errors.ts';
import { generationOf } from '../../src/codeblocks/generation.ts';
import { rewriteServletQuery } from '../../src/codeblocks/servlet-query.ts';
import { parseDownloadQuery } from '../../src/codeblocks/download.schemas.ts';

describe('servlet query rewrite', () => {
  it('renames the servlet names per generation, drops os_authType and keeps raw values', () => {
    const q = 'pagepropertykey=dGVzdA%3D%3D&macroid=a%2Bb&pageid=12&asciionly=true&os_authType=basic&OS_AUTHTYPE=x&keep=1';
    expect(rewriteServletQuery(q, generationOf('5'))).toBe('key=dGVzdA%3D%3D&macroId=a%2Bb&contentId=12&asciiOnly=true&keep=1');
    expect(rewriteServletQuery(q, generationOf('3.4'))).toBe('key=dGVzdA%3D%3D&macroId=a%2Bb&pageId=12&asciiOnly=true&keep=1');
  });

  it('passes the REST names of the XML list links through and percent-encodes stray bytes', () => {
    expect(rewriteServletQuery('key=cmF3&pageId=5&macroId=m', generationOf('4'))).toBe('key=cmF3&pageId=5&macroId=m');
    expect(rewriteServletQuery('macroid=\u00c3\u00a4 x&&', generationOf('4'))).toBe('macroId=%C3%A4%20x');
  });
});

describe('error bodies', () => {
  it('never shows the message of an unexpected error', () => {
    const internal = new AppError(500, 'INTERNAL', 'select * from secret failed');
    expect(appErrorBody(generationOf('5'), internal)).toEqual({
      error: '500_ERROR',
      message: 'Did you provide valid URL-Parameters?',
      extraMessage: 'Internal server error',
    });
    expect(appErrorBody(generationOf('3.4'), internal)).toEqual({ error: '500 ERROR', message: 'Did you provide valid URL-Parameters?' });
  });

  it('uses the refined key only where the generation has them', () => {
    const err = codeblocksError('IO', 'timed out');
    expect(appErrorBody(generationOf('4'), err).error).toBe('500_ERROR_IO_EXCEPTION');
    expect(appErrorBody(generationOf('3.4'), err)).toEqual({ error: '500 ERROR', message: 'Did you provide valid URL-Parameters?' });
  });
});

describe('download parameters', () => {
  it('decodes the key and reads asciiOnly like Boolean.parseBoolean', () => {
    expect(parseDownloadQuery({ key: 'cmF3', macroId: 'm', contentId: '007', asciiOnly: 'True' })).toEqual({
      contentId: 7,
      macroId: 'm',
      section: 'raw',
      asciiOnly: true,
    });
  });

  it('accepts 64-bit content ids up to 2^53-1 (issue 31)', () => {
    expect(parseDownloadQuery({ key: 'cmF3', macroId: 'm', pageId: '5000000123' }).contentId).toBe(5_000_000_123);
    expect(parseDownloadQuery({ key: 'cmF3', macroId: 'm', contentId: String(Number.MAX_SAFE_INTEGER) }).contentId).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses zero, negative and oversized ids, and empty keys', () => {
    for (const q of [
      { key: 'cmF3', macroId: 'm', contentId: '0' },
      { key: 'cmF3', macroId: 'm', contentId: '-1' },
      { key: 'cmF3', macroId: 'm', contentId: '9007199254740992' },
      { key: '', macroId: 'm', contentId: '1' },
      { key: 'cmF3', macroId: '', contentId: '1' },
      { key: 'cmF3', macroId: 'm' },
    ]) {
      expect(() => parseDownloadQuery(q), JSON.stringify(q)).toThrow(AppError);
    }
  });
});
