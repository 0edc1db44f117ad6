import { spawn } from 'node:child_process';
import { signalExitCode } from '../engine/lifecycle';

/**
 * A live session started from a replay or the sessions browser (`f` forks, `r` resumes) runs as
 * `tenet fork …` or `tenet resume …` in a process of its own, on this terminal. However it ends —
 * its result screen quit, Ctrl+C twice, a crash — that process exits and the screen it came from is
 * drawn again; run in this process, Ctrl+C twice would have ended tenet.
 *
 * Returns undefined when that screen should come back, or an exit code when tenet should end with
 * it: the session could not run at all (a model without a key, a repository gone), and the reason
 * it printed must stay on screen, not be drawn over.
 */
export async function tenetInChild(command: string[], dir: string | undefined): Promise<number | undefined> {
  const args = [...process.execArgv, process.argv[1]!, ...command, ...(dir ? ['--sessions-dir', dir] : [])];
  // The replay's screen is gone, but Node would go on reading the terminal: every key must reach the session.
  if (process.stdin.isTTY) process.stdin.pause();
  // stderr is passed on as it comes, and its end kept: that is where an error is said.
  const child = spawn(process.execPath, args, { stdio: ['inherit', 'inherit', 'pipe'] });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    said = (said + chunk.toString('utf8')).slice(-4096);
  });
  // A SIGINT from the terminal reaches both processes: it is the session's to handle, not this one's to die of.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  try {
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (exit, signal) => resolve(exit ?? signalExitCode(signal ?? 'SIGTERM')));
    });
    return code !== 0 && endedInError(said) ? code : undefined;
  } finally {
    process.off('SIGINT', ignore);
  }
}

/** Whether tenet's last word on stderr was an error (`tenet: …` and its indented `fix:`), not a warning. */
export function endedInError(stderr: string): boolean {
  const said = stderr.split('\n').filter((line) => line.startsWith('tenet: '));
  return !!said.length && !said.at(-1)!.startsWith('tenet: warning:');
}
