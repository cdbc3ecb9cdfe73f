// tsc copies only TypeScript output; the Redis scripts (and the includes/ they pull in) are read
// from disk at run time.
const fs = require('node:fs');
const path = require('node:path');

function copyLua(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyLua(source, target);
    else if (entry.name.endsWith('.lua')) fs.copyFileSync(source, target);
  }
}

copyLua(path.join(__dirname, '..', 'src', 'store', 'scripts'), path.join(__dirname, '..', 'dist', 'store', 'scripts'));
