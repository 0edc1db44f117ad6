import type { Readable, Writable } from 'node:stream';

/**
 * Where tenet runs Python: THM's pytest runs, the agent's test runs and its debugger session all
 * go through this interface, so they behave the same in a local process and in a container.
 */
export interface SpawnOptions {
  /** Working directory, relative to the workspace root (default: the root). */
  cwd?: string;
  /** Variables added to the sandbox's environment. */
  env?: Record<string, string>;
}

export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
  /** Set when the process could not be started at all (e.g. the command does not exist). */
  error?: string;
}

export interface SandboxProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves when the process has exited and its output streams are drained. */
  readonly exited: Promise<ExitStatus>;
  /** Kills the process and everything it started. */
  kill(signal?: NodeJS.Signals): void;
}

export interface ProcessRunOptions extends SpawnOptions {
  timeoutMs?: number;
  input?: string;
  /** Output beyond this many characters per stream (as decoded, UTF-8) is dropped: the middle is cut. */
  maxOutputChars?: number;
  signal?: AbortSignal;
}

export interface CompletedProcess extends ExitStatus {
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export interface Sandbox {
  readonly kind: 'local' | 'docker';
  /** The workspace root as processes in the sandbox see it. */
  readonly workdir: string;
  /** Where tenet's Python helpers (source/python) are visible to processes in the sandbox. */
  readonly helpersDir: string;
  /** The environment processes start with (before SpawnOptions.env). */
  readonly env: NodeJS.ProcessEnv;
  /**
   * Finds what starting a process needs, without blocking (spawn would wait for it otherwise).
   * `versionDir`: the folder a version manager looks in for the interpreter (the repository).
   */
  prepare?(versionDir?: string): Promise<void>;
  /** Whether its processes are confined (bubblewrap) and see only what they are shown. */
  readonly confined?: boolean;
  /** Of these folders, those that exist here but a confined process running `program` is not shown (none where it sees everything). */
  unseen?(paths: readonly string[], program?: string): string[];
  /** Shows these folders read-only to the processes it starts from now on. */
  show?(paths: readonly string[]): void;
  spawn(argv: string[], options?: SpawnOptions): SandboxProcess;
  run(argv: string[], options?: ProcessRunOptions): Promise<CompletedProcess>;
  /** Makes a workspace file's new content visible inside the sandbox (a no-op where they share a disk). */
  syncFile(rel: string): Promise<void>;
  /** syncFile for several files at once (in a container: one copy, not one per file). */
  syncFiles(rels: readonly string[]): Promise<void>;
  /** A workspace file as processes in the sandbox see it (what the tests ran against). */
  readFile(rel: string): Promise<Buffer>;
  dispose(): Promise<void>;
}
