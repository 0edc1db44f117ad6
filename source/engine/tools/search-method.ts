import * as z from 'zod';
import { byRelevance, functionHit } from './code-view';
import { resolveFile } from './files';
import { renderHits } from './format';
import { plural } from '../util/plural';
import { defineTool } from './tool';

export const searchMethod = defineTool({
  name: 'search_method',
  description: 'Find functions and methods by name in the repository. Returns the full code of each.',
  schema: z.object({ method_name: z.string().min(1).describe('Name of the function or method, e.g. total') }),
  run({ method_name }, { index }) {
    const found = index.functionsNamed(method_name).sort(byRelevance);
    if (!found.length) return `Could not find method ${method_name} in the codebase.`;
    return renderHits(
      `Found ${plural(found.length, 'method')} with name ${method_name} in the codebase:`,
      found.map((f) => functionHit(index, f)),
    );
  },
});

export const searchMethodInClass = defineTool({
  name: 'search_method_in_class',
  description: 'Show the full code of a method of a class (any class of that name).',
  schema: z.object({
    method_name: z.string().min(1).describe('Name of the method'),
    class_name: z.string().min(1).describe('Name of the class'),
  }),
  run({ method_name, class_name }, { index }) {
    const inClass = (qualname: string | null) =>
      !!qualname && (qualname === class_name || qualname.endsWith(`.${class_name}`));
    if (!index.classesNamed(class_name).length) return `Could not find class ${class_name} in the codebase.`;
    const found = index
      .functionsNamed(method_name)
      .filter((f) => inClass(f.entry.className))
      .sort(byRelevance);
    if (!found.length) return `Could not find method ${method_name} in class ${class_name}.`;
    return renderHits(
      `Found ${plural(found.length, 'method')} with name ${method_name} in class ${class_name}:`,
      found.map((f) => functionHit(index, f)),
    );
  },
});

export const searchMethodInFile = defineTool({
  name: 'search_method_in_file',
  description: 'Show the full code of the functions or methods with this name in one file.',
  schema: z.object({
    method_name: z.string().min(1).describe('Name of the function or method'),
    file_name: z.string().min(1).describe('Path of the file, relative to the repository root'),
  }),
  run({ method_name, file_name }, { index }) {
    const path = resolveFile(index, file_name);
    const found = index
      .functionsNamed(method_name)
      .filter((f) => f.file.path === path)
      .sort(byRelevance);
    if (!found.length) return `Could not find method ${method_name} in file ${path}.`;
    return renderHits(
      `Found ${plural(found.length, 'method')} with name ${method_name} in file ${path}:`,
      found.map((f) => functionHit(index, f)),
      Infinity,
    );
  },
});
