/** The frames V8's profilers report (CPU profiles, sampling heap profiles), named alike by the benches that read them. */
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..');

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** Where a frame's function is: a package's file inside node_modules, ours from the repository's root, Node's by its id; '' for none. */
export function where({ url, lineNumber }: CallFrame): string {
  if (!url) return '';
  const inPackage = url.lastIndexOf('node_modules/');
  const file = url.startsWith('file://') ? url.slice('file://'.length) : url;
  const path = inPackage >= 0 ? url.slice(inPackage + 'node_modules/'.length) : file.startsWith('/') ? relative(ROOT, file) : file;
  return `${path}:${lineNumber + 1}`;
}
