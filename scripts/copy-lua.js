// tsc copies only TypeScript output; the Redis scripts are read from disk at run time.
const fs = require('node:fs');
const path = require('node:path');

const from = path.join(__dirname, '..', 'src', 'store', 'scripts');
const to = path.join(__dirname, '..', 'dist', 'store', 'scripts');
fs.mkdirSync(to, { recursive: true });
for (const name of fs.readdirSync(from)) {
  if (name.endsWith('.lua')) fs.copyFileSync(path.join(from, name), path.join(to, name));
}
