import { EXIT } from './exit-codes';

/**
 * Shutdown hooks. Whatever tenet must undo before it exits — kill pytest process groups, remove a
 * scratch workspace — registers here, and runs on normal exit, on SIGINT/SIGTERM/SIGHUP and on an
 * uncaught error. Hooks are synchronous because `process.on('exit')` cannot wait.
 */
type Cleanup = () => void;

const cleanups = new Set<Cleanup>();
let installed = false;

export function onShutdown(cleanup: Cleanup): () => void {
  install();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

export function runCleanups(): void {
  // Newest first: a workspace is removed after the processes running in it are killed.
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // Best effort: one failing hook must not keep the others from running.
    }
  }
}

/** The signals tenet cleans up on, and the exit code of a process they end. */
const SIGNAL_EXITS: Record<string, number> = {
  SIGINT: EXIT.interrupted,
  SIGTERM: EXIT.terminated,
  SIGHUP: EXIT.hangup,
};
let signalHandler: ((signal: NodeJS.Signals) => void) | undefined;

/** The exit code of a process that ends because of `signal`, as a shell reports it (128 + its number). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return SIGNAL_EXITS[signal] ?? EXIT.terminated;
}

/**
 * What happens on a signal once cleanups ran. The TUI and tests may replace the default (exit).
 * It listens from now on, hook or not: a signal before the first hook would end the process
 * without it (bench make stopped before its first pytest run said nothing).
 */
export function setSignalHandler(handler: (signal: NodeJS.Signals) => void): void {
  install();
  signalHandler = handler;
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runCleanups);
  for (const signal of Object.keys(SIGNAL_EXITS) as NodeJS.Signals[]) {
    process.on(signal, () => {
      runCleanups();
      if (signalHandler) signalHandler(signal);
      else process.exit(signalExitCode(signal));
    });
  }
}
