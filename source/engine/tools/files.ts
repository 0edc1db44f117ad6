import { closeSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, relative, resolve, sep } from 'node:path';
import type { RepoIndex } from '../index/repo-index';
import { decodeSource } from '../python-source/source-text';
import { openInside, OutsideWorkspaceError } from '../workspace/inside';
import { ToolInputError } from './tool';

/** Files larger than this are not read whole (read_file would show a sliver of them anyway). */
export const MAX_TEXT_BYTES = 4 * 1024 * 1024;
/** Longer lines (minified code, data) are cut so one line cannot fill the output. */
export const MAX_LINE_CHARS = 2000;

function cleanName(index: RepoIndex, name: string): string {
  const cleaned = name.trim().replace(/\\/g, '/');
  const root = resolve(index.root);
  // An absolute path inside the workspace is taken as relative to it.
  if (cleaned.startsWith(`${root}/`)) return cleaned.slice(root.length + 1);
  return cleaned.replace(/^\.\//, '').replace(/^\/+/, '');
}

/** Indexed Python files whose path ends with the name (`cart.py`, `shop/cart.py`); ambiguous names are errors. */
function bySuffix(index: RepoIndex, name: string, rooted: string): string | undefined {
  const matches = index.files.map((f) => f.path).filter((path) => path === rooted || path.endsWith(`/${rooted}`));
  if (matches.length > 1) {
    throw new ToolInputError(
      `File name ${name} is ambiguous; it matches:\n${matches
        .slice(0, 20)
        .map((m) => `- ${m}`)
        .join('\n')}\nUse the full path.`,
    );
  }
  return matches[0];
}

/**
 * The indexed Python file a model means by `name`: an exact path, else the one file whose path
 * ends with it. Ambiguous or unknown names, and files that are not Python, are errors the model
 * can act on.
 */
export function resolveFile(index: RepoIndex, name: string): string {
  const rooted = cleanName(index, name);
  if (index.file(rooted)) return rooted;
  const found = bySuffix(index, name, rooted);
  if (found) return found;
  const absolute = resolve(index.root, rooted);
  if (!rooted.endsWith('.py') && statSync(absolute, { throwIfNoEntry: false })?.isFile()) {
    throw new ToolInputError(
      `${rooted} is not a Python file: this tool searches the indexed .py files. Read it with read_file.`,
    );
  }
  throw new ToolInputError(
    `No Python file ${name} in the repository. Use a path relative to the repository root, as search results show it.`,
  );
}

export interface WorkspaceText {
  /** Relative to the workspace root. */
  path: string;
  lines: string[];
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Binary content: a NUL byte in the first 8 KB (what git and grep go by). */
function looksBinary(fd: number, size: number): boolean {
  const head = Buffer.alloc(Math.min(8192, size));
  readSync(fd, head, 0, head.length, 0);
  return head.includes(0);
}

function splitLines(text: string): string[] {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.split('\n').map((line) => {
    const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
    return clean.length > MAX_LINE_CHARS
      ? `${clean.slice(0, MAX_LINE_CHARS)} [... ${clean.length - MAX_LINE_CHARS} more characters on this line]`
      : clean;
  });
}

/**
 * Any text file of the workspace by name, as it is on disk now: indexed Python files through the
 * index (by path or unique suffix), every other file (configuration, data, docs, Python the index
 * skips) read directly. Paths that leave the workspace (`..`, absolute paths, symbolic links
 * pointing out), folders, binaries and very large files are refused with a message.
 */
export function readWorkspaceText(index: RepoIndex, name: string): WorkspaceText {
  const rooted = cleanName(index, name);
  if (index.file(rooted)) return { path: rooted, lines: index.lines(rooted) };
  const root = resolve(index.root);
  const absolute = resolve(root, rooted);
  if (!isInside(root, absolute))
    throw new ToolInputError(`${name} is outside the repository: read_file reads files inside it only.`);
  // Opened first and checked on the open file: a link swapped in after a check cannot lead it out.
  let opened;
  try {
    opened = openInside(root, rooted);
  } catch (error) {
    if (error instanceof OutsideWorkspaceError)
      throw new ToolInputError(
        `${name} leads outside the repository (a symbolic link): read_file reads files inside it only.`,
      );
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && statSync(absolute, { throwIfNoEntry: false }))
      throw error;
    const found = bySuffix(index, name, rooted);
    if (found) return { path: found, lines: index.lines(found) };
    const sameName = index.files
      .map((f) => f.path)
      .filter((p) => basename(p) === basename(rooted))
      .slice(0, 5);
    const hint = sameName.length ? ` Files with that name: ${sameName.join(', ')}.` : '';
    throw new ToolInputError(
      `No file ${name} in the repository. Use a path relative to the repository root, as search results and view_directory show it.${hint}`,
    );
  }
  const { fd, stats } = opened;
  try {
    const path = relative(root, absolute).split(sep).join('/');
    if (stats.isDirectory())
      throw new ToolInputError(`${path || '.'} is a folder, not a file; list it with view_directory.`);
    if (!stats.isFile()) throw new ToolInputError(`${path} is not a regular file.`);
    if (stats.size > MAX_TEXT_BYTES) {
      throw new ToolInputError(
        `${path} is ${(stats.size / 1024 / 1024).toFixed(1)} MB, more than read_file reads (${MAX_TEXT_BYTES / 1024 / 1024} MB). Look into it with run_debugger_cmd (head, grep, sed -n).`,
      );
    }
    if (looksBinary(fd, stats.size))
      throw new ToolInputError(`${path} is a binary file (${stats.size} bytes); read_file shows text files only.`);
    return { path, lines: splitLines(decodeSource(readFileSync(fd)).text) };
  } finally {
    closeSync(fd);
  }
}
