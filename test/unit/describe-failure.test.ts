import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/describe-failure.ts';
import { AppError } from '../../src/platform/http/app-error.ts';
import { StartupError } from '../../src/platform/startup-error.ts';

describe('describeFailure', () => {
  it('names a field whose message repeats the error, and quotes the others', () => {
    const taken = new AppError(400, 'VALIDATION', 'A user with that username already exists.', {
      details: [{ name: 'username', message: 'A user with that username already exists.' }],
    });
    expect(describeFailure(taken)).toBe('A user with that username already exists. (username)');
    const invalid = new AppError(400, 'VALIDATION', 'validation errors', {
      details: [
        { name: 'name', message: 'must not contain a colon' },
        { name: 'email', message: 'validation errors' },
      ],
    });
    expect(describeFailure(invalid)).toBe('validation errors (name: must not contain a colon; email)');
  });

  it('prints a foreseen failure as it is, and anything else with where to look', () => {
    expect(describeFailure(new StartupError('Port 8080 is in use: stop the other process or set PORT.'))).toBe(
      'Port 8080 is in use: stop the other process or set PORT.',
    );
    expect(describeFailure(new Error('boom\nat line 2'))).toBe(
      'Unexpected error: boom. Run again with LOG_LEVEL=debug for the details, and report it if it persists.',
    );
  });
});
