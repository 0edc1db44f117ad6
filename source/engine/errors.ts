import type { RunResult } from './events';
import { EXIT } from './exit-codes';

/**
 * Errors a user can act on. `message` says what is wrong, `fix` says what to do about it, and
 * `exitCode` is the process's exit code (one of EXIT: bad input unless said otherwise).
 */
export class TenetError extends Error {
  constructor(
    message: string,
    readonly fix?: string,
    readonly exitCode: number = EXIT.badInput,
  ) {
    super(message);
    this.name = 'TenetError';
  }
}

/**
 * A way out of the agent's loop that is no failure (mini-swe-agent's terminating exceptions): a
 * spend limit reached, the end of a scripted model's script. The agent's part ends with
 * `stopReason`, and the evaluation and the patch go on with what it has (run/run-agent.ts).
 * `warning`: what the developer is told there, when no event has said it already.
 */
export class AgentStop extends Error {
  constructor(
    message: string,
    readonly stopReason: RunResult['stopReason'],
    readonly warning?: string,
  ) {
    super(message);
    this.name = 'AgentStop';
  }
}

const FILE_PROBLEMS: Record<string, string> = {
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'part of the path is a file, not a folder',
  ENOENT: 'it does not exist',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
  EEXIST: 'it already exists',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * A file-system error about a path the user gave (a session log that is a folder, an output in a
 * read-only place) as a TenetError that names the path and the problem, instead of a stack trace.
 */
export function fileProblem(error: unknown): TenetError | undefined {
  const { code, path, syscall } = error as NodeJS.ErrnoException;
  const problem = code ? FILE_PROBLEMS[code] : undefined;
  if (!problem || !path) return undefined;
  return new TenetError(
    `Cannot ${syscall ?? 'use'} ${path}: ${problem}.`,
    'check the path you gave (and its permissions), then try again',
  );
}

export function describeError(error: unknown): string {
  if (error instanceof TenetError) return error.fix ? `${error.message}\n  fix: ${error.fix}` : error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
