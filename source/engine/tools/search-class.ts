import * as z from 'zod';
import { byRelevance, classHit } from './code-view';
import { resolveFile } from './files';
import { renderHits } from './format';
import { plural } from '../util/plural';
import { defineTool } from './tool';

export const searchClass = defineTool({
  name: 'search_class',
  description:
    'Find classes by name in the repository. Returns each class signature: its bases and the signatures of its methods (no bodies).',
  schema: z.object({ class_name: z.string().min(1).describe('Name of the class, e.g. Cart') }),
  run({ class_name }, { index }) {
    const found = index.classesNamed(class_name).sort(byRelevance);
    if (!found.length) return `Could not find class ${class_name} in the codebase.`;
    return renderHits(
      `Found ${plural(found.length, 'class', 'classes')} with name ${class_name} in the codebase:`,
      found.map((c) => classHit(index, c, false)),
    );
  },
});

export const searchClassInFile = defineTool({
  name: 'search_class_in_file',
  description: 'Show the full code of a class defined in one file.',
  schema: z.object({
    class_name: z.string().min(1).describe('Name of the class'),
    file_name: z.string().min(1).describe('Path of the file, relative to the repository root'),
  }),
  run({ class_name, file_name }, { index }) {
    const path = resolveFile(index, file_name);
    const found = index.classesNamed(class_name).filter((c) => c.file.path === path);
    if (!found.length) return `Could not find class ${class_name} in file ${path}.`;
    return renderHits(
      `Found ${plural(found.length, 'class', 'classes')} with name ${class_name} in file ${path}:`,
      found.map((c) => classHit(index, c, true)),
      Infinity,
    );
  },
});
