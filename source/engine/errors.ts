/**
 * Errors a user can act on. `message` says what is wrong, `fix` says what to do about it, and
 * `exitCode` is the documented process exit code (2 = bad input, 3 = model/provider failure).
 */
export class TenetError extends Error {
  constructor(
    message: string,
    readonly fix?: string,
    readonly exitCode: number = 2,
  ) {
    super(message);
    this.name = 'TenetError';
  }
}

export const EXIT = {
  pass: 0,
  fail: 1,
  badInput: 2,
  provider: 3,
  interrupted: 130,
} as const;

export function describeError(error: unknown): string {
  if (error instanceof TenetError) return error.fix ? `${error.message}\n  fix: ${error.fix}` : error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
