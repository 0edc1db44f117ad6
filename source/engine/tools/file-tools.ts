import { posix, relative, resolve } from 'node:path';
import * as z from 'zod';
import { listInside, OutsideWorkspaceError } from '../workspace/inside';
import { isSkippedDir } from '../workspace/walk';
import { readWorkspaceText } from './files';
import { numbered } from './format';
import { defineTool, ToolInputError } from './tool';

const MAX_LINES = 400;

export const getCodeAroundLine = defineTool({
  name: 'get_code_around_line',
  description: 'Show the code around a line of a file: window_size lines before and after it.',
  schema: z.object({
    file_name: z.string().min(1).describe('Path of the file, relative to the repository root'),
    line_number: z.coerce.number().int().min(1).describe('1-based line number'),
    window_size: z.coerce.number().int().min(0).max(200).default(10).describe('Lines to show on each side'),
  }),
  run({ file_name, line_number, window_size }, { index }) {
    const { path, lines } = readWorkspaceText(index, file_name);
    if (line_number > lines.length)
      throw new ToolInputError(`Line ${line_number} is past the end of ${path} (${lines.length} lines).`);
    const from = Math.max(1, line_number - window_size);
    const to = Math.min(lines.length, line_number + window_size);
    return `Code of ${path} around line ${line_number} (lines ${from}-${to}):\n<file>${path}</file>\n<code>\n${numbered(lines.slice(from - 1, to), from)}\n</code>`;
  },
});

export const readFileTool = defineTool({
  name: 'read_file',
  description: `Read lines start_line..end_line (1-based, inclusive) of a text file in the repository (code, configuration, docs); at most ${MAX_LINES} lines per call.`,
  schema: z.object({
    file_name: z.string().min(1).describe('Path of the file, relative to the repository root'),
    start_line: z.coerce.number().int().min(1).default(1).describe('First line, 1-based'),
    end_line: z.coerce.number().int().min(1).optional().describe('Last line, inclusive (default: start_line + 199)'),
  }),
  run({ file_name, start_line, end_line }, { index }) {
    const { path, lines } = readWorkspaceText(index, file_name);
    if (start_line > lines.length)
      throw new ToolInputError(`start_line ${start_line} is past the end of ${path} (${lines.length} lines).`);
    const last = end_line ?? Math.min(lines.length, start_line + 199);
    if (last < start_line) throw new ToolInputError(`end_line ${last} is before start_line ${start_line}.`);
    const to = Math.min(last, lines.length, start_line + MAX_LINES - 1);
    const note =
      to < last ? `\n(Shown up to line ${to}: at most ${MAX_LINES} lines per call; the file has ${lines.length}.)` : '';
    return `<file>${path}</file> lines ${start_line}-${to} of ${lines.length}\n<code>\n${numbered(lines.slice(start_line - 1, to), start_line)}\n</code>${note}`;
  },
});

export const viewDirectory = defineTool({
  name: 'view_directory',
  description: 'List a folder of the repository (recursively, sorted, no hidden files), up to max_results entries.',
  schema: z.object({
    path: z.string().default('.').describe('Folder relative to the repository root ("." for the root)'),
    max_results: z.coerce.number().int().min(1).max(1000).default(100).describe('How many entries to list at most'),
  }),
  run({ path, max_results }, { workspace }) {
    const root = resolve(workspace.root);
    const start = resolve(root, path.replace(/^\/+/, ''));
    if (start !== root && !start.startsWith(`${root}/`)) throw new ToolInputError(`${path} is outside the repository.`);
    // Each folder is opened, checked to be inside the workspace, then listed: a link planted in it
    // (to `/`, say) is listed as a link, never followed.
    const list = (rel: string) => {
      try {
        return listInside(root, rel).entries;
      } catch (error) {
        if (error instanceof OutsideWorkspaceError)
          throw new ToolInputError(
            `${path} leads outside the repository (a symbolic link): view_directory lists folders inside it only.`,
          );
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTDIR') throw new ToolInputError(`${path} is a file, not a folder; use read_file.`);
        if (code === 'ENOENT') throw new ToolInputError(`No folder ${path} in the repository.`);
        throw error;
      }
    };
    const entries: string[] = [];
    let more = 0;
    const walk = (rel: string, depth: number) => {
      const children = list(rel)
        .filter(
          (e) => !e.name.startsWith('.') && !(e.isDirectory() && isSkippedDir(e.name)) && !e.name.endsWith('.pyc'),
        )
        .sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const child of children) {
        if (entries.length >= max_results) {
          more++;
          continue;
        }
        entries.push(
          `${'  '.repeat(depth)}${child.name}${child.isDirectory() ? '/' : child.isSymbolicLink() ? '@' : ''}`,
        );
        if (child.isDirectory()) walk(posix.join(rel, child.name), depth + 1);
      }
    };
    walk(relative(root, start), 0);
    const shown = relative(root, start) || '.';
    return `Contents of ${shown}:\n${entries.join('\n')}${more ? `\n... and ${more} more entries (raise max_results or list a subfolder)` : ''}`;
  },
});
