import * as z from 'zod';
import { resolveFile } from './files';
import { defineTool } from './tool';

export const searchImportStatement = defineTool({
  name: 'search_import_statement',
  description:
    'List every top-level import statement of a file, with line numbers: what names the file can use and where they come from.',
  schema: z.object({ file_name: z.string().min(1).describe('Path of the file, relative to the repository root') }),
  run({ file_name }, { index }) {
    const path = resolveFile(index, file_name);
    const imports = index.file(path)!.imports.filter((i) => i.topLevel);
    if (!imports.length) return `File ${path} has no top-level import statements.`;
    // `import a, b` is one statement indexed per module: show each statement once.
    const seen = new Set<number>();
    const lines = imports.filter((i) => !seen.has(i.line) && seen.add(i.line)).map((i) => `${i.line} ${i.text}`);
    return `Top-level imports of ${path}:\n<file>${path}</file>\n<code>\n${lines.join('\n')}\n</code>`;
  },
});
