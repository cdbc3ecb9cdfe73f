// Part of `npm start`'s preparation (prestart, after the build): with no Redis configured,
// development runs a private redis-server (src/dev/managedRedis.ts), so a fresh machine needs one
// installed. Installing software is the machine's setup, not something the server may do.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const { findRedisServer, MISSING_REDIS } = require('../dist/dev/managedRedis');

// Read as src/server/config.ts reads them (empty is unset). Production must be given a Redis, and
// config.ts says so itself.
const redisConfigured = Boolean(process.env.REDIS_URL || process.env.REDIS_CLUSTER_NODES || process.env.REDIS_SENTINELS);
if (redisConfigured || process.env.NODE_ENV === 'production' || findRedisServer()) process.exit(0);

// Fresh containers and CI run as root on Debian: installing is then cheaper than failing. Anyone
// else is asked to install it: `npm start` does not elevate itself.
if (process.getuid?.() === 0 && fs.existsSync('/etc/debian_version')) {
  console.error('redis-server not found: running `apt-get update && apt-get install -y redis-server`');
  try {
    execFileSync('sh', ['-c', 'apt-get update && apt-get install -y redis-server'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch {
    console.error('apt-get could not install redis-server (its output is above)');
  }
  if (findRedisServer()) process.exit(0);
}
console.error(MISSING_REDIS);
process.exit(1);
