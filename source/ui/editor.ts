import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { handTerminal, type Terminal } from './terminal-handoff';

/** The developer's editor, as the TUI uses it: a file opened, and the TUI back once they quit. */
export interface Editor {
  editFile(path: string): Promise<void>;
}

const onPath = (name: string, env: NodeJS.ProcessEnv) =>
  (env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** `$EDITOR` (which may carry arguments, e.g. `code -w`), else `vi`, else `nano`; undefined when there is none. */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.EDITOR?.trim()) return env.EDITOR.trim();
  return ['vi', 'nano'].find((name) => onPath(name, env));
}

/** The editor as a child with the terminal as its stdio; rejects with what went wrong. */
function runEditor(command: string, file: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    // Through the shell, so that $EDITOR may be `code -w` or `emacs -nw`; the file is "$1", never parsed.
    const child = spawn('sh', ['-c', `${command} "$1"`, 'tenet-editor', file], { stdio: 'inherit', env });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else if (code === 127) reject(new Error(`the editor "${command}" was not found; set $EDITOR`));
      else
        reject(
          new Error(`the editor "${command}" ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}`),
        );
    });
  });
}

/** The developer's editor in the TUI's terminal (see terminal-handoff.ts for how the terminal changes hands). */
export function terminalEditor(terminal: Terminal, env: NodeJS.ProcessEnv = process.env): Editor {
  return {
    async editFile(path) {
      const command = editorCommand(env);
      if (!command) throw new Error('no editor: set $EDITOR (neither vi nor nano is on the PATH)');
      await handTerminal(terminal, () => runEditor(command, path, env));
    },
  };
}

/** Text edited in a scratch file (named `name`, for the editor's syntax colours); the text as the developer left it. */
export async function editText(editor: Editor, text: string, name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tenet-edit-'));
  const file = join(dir, name);
  try {
    writeFileSync(file, text);
    await editor.editFile(file);
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
