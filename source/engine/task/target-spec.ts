import { TenetError } from '../errors';

/** A target as the user names it: `path/to/module.py::func` or `path/to/module.py::Class.method`. */
export interface TargetSpec {
  /** Path of the module as typed (relative to the repository, or absolute inside it). */
  file: string;
  /** Python `__qualname__` of the function. */
  qualname: string;
  /** Optional 1-based line (`::name@LINE`) to pick one of several definitions with the same name. */
  line?: number;
}

const FORMAT = 'path/to/module.py::function or path/to/module.py::Class.method';

export function parseTargetSpec(raw: string): TargetSpec {
  const separator = raw.indexOf('::');
  if (separator <= 0 || separator === raw.length - 2) {
    throw new TenetError(`Target "${raw}" is not of the form ${FORMAT}.`, `pass --target ${FORMAT.split(' or ')[0]}`);
  }
  const file = raw.slice(0, separator);
  // pytest users write Class::method; Python's qualname is Class.method. Accept both.
  let qualname = raw.slice(separator + 2).replaceAll('::', '.');
  let line: number | undefined;
  const at = /@(\d+)$/.exec(qualname);
  if (at) {
    line = Number(at[1]);
    qualname = qualname.slice(0, at.index);
  }
  if (!file.endsWith('.py')) {
    throw new TenetError(
      `Target "${raw}": "${file}" is not a Python file.`,
      `name the module that defines the function: ${FORMAT}`,
    );
  }
  // Python's identifiers are Unicode (PEP 3131): `scalé` is one.
  if (
    !/^[\p{XID_Start}_]\p{XID_Continue}*(\.(<locals>|[\p{XID_Start}_]\p{XID_Continue}*))*$/u.test(
      qualname.normalize('NFKC'),
    )
  ) {
    throw new TenetError(`Target "${raw}": "${qualname}" is not a Python qualified name.`, `use ${FORMAT}`);
  }
  return line === undefined ? { file, qualname } : { file, qualname, line };
}

export function formatTarget(file: string, qualname: string): string {
  return `${file}::${qualname}`;
}
