import type { TranscriptEntry, Writer } from '../../protocol/debugger';
import type { DebuggerSession } from './session';

/** Where pdb stands: the frame of the last location it printed (`> /path/mod.py(12)func()`). */
export interface PdbLocation {
  file: string;
  line: number;
  func: string;
}

const LOCATION = /^> (.+)\((\d+)\)(.*)\(\)\s*$/gm;

/**
 * Where pdb stands now, read back from the transcript: the last location line it printed in the
 * current pdb (the command that opened it, and the pdb lines after). A `p x` prints none, so the
 * last step, `up` or `where` before it says. `root`: the workspace as the session sees it, taken
 * off the file's path so it reads as the repository's own.
 */
export function pdbLocation(transcript: readonly TranscriptEntry[], root?: string): PdbLocation | undefined {
  for (let i = transcript.length - 1; i >= 0; i--) {
    const entry = transcript[i]!;
    const last = [...entry.output.matchAll(LOCATION)].at(-1);
    if (last) {
      const [, path, line, func] = last;
      const file = root && path!.startsWith(`${root}/`) ? path!.slice(root.length + 1) : path!;
      return { file, line: Number(line), func: func! };
    }
    // The shell command that opened this pdb printed no location: there is none to say.
    if (entry.mode === 'shell') return undefined;
  }
  return undefined;
}

/** After a line in the note: who typed it, when not the developer. */
const WHO: Record<Exclude<Writer, 'agent'>, string> = {
  human: '',
  tenet: '   (started by tenet for the takeover, not typed by the developer)',
};

/**
 * What the agent reads when the developer hands the debugger back: what was run in the takeover
 * (the developer's lines, and the pdb tenet started for them) with its output, and the state the
 * session is in now — the agent's next command goes wherever the developer left it, so it must
 * know whether that is pdb (and where) or the shell. Read once the session's queue ran dry (a
 * line still running would change it). `since`: where the takeover began in the transcript; when
 * nothing ran in it since, nothing changed and there is nothing to say.
 */
export function handBackNote(
  session: Pick<DebuggerSession, 'currentMode' | 'running' | 'transcript' | 'root'>,
  since: number,
): string | undefined {
  const entries = session.transcript
    .slice(since)
    .filter((e): e is TranscriptEntry & { who: Exclude<Writer, 'agent'> } => e.who !== 'agent');
  if (!entries.length) return undefined;
  const ran = entries
    .map((e) => `${e.mode === 'pdb' ? '(Pdb) ' : '$ '}${e.input}${WHO[e.who]}\n${e.output}`)
    .join('\n');
  return `The developer took over the debugger session and ran these commands (with their output); the session is yours again:\n\n${ran}\n\n${stateWords(session)}`;
}

function stateWords(session: Pick<DebuggerSession, 'currentMode' | 'running' | 'transcript' | 'root'>): string {
  if (!session.running) return 'The session is closed now: your next command starts a fresh shell.';
  if (session.currentMode === 'shell')
    return 'The session is at the shell prompt now (not in pdb): your next command runs in the shell.';
  const at = pdbLocation(session.transcript, session.root);
  const where = at ? ` stopped at ${at.file}:${at.line} in ${at.func}()` : '';
  return `The developer left the session inside pdb${where}: your next command is read by pdb as a pdb line (or Python), not by the shell. Go on from there with pdb commands, or send \`q\` to leave pdb (\`restart\` starts a fresh shell) before running a shell command.`;
}
