import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hashKey } from '../../../src/server/auth/apiKeys';
import { ConfigError, loadConfig } from '../../../src/server/config';

const ADMIN_KEY = 'k'.repeat(16);

describe('loadConfig', () => {
  it('has defaults for a developer machine', () => {
    expect(loadConfig({})).toEqual({
      port: 4000,
      host: '127.0.0.1',
      redisUrl: null,
      redisCluster: null,
      redisSentinel: null,
      redisReplication: { minReplicas: 0, timeoutMs: 500 },
      redisDataDir: path.resolve('.data', 'redis'),
      redisReadyTimeoutMs: 10_000,
      redisCommandTimeoutMs: 2_000,
      redisAppendfsync: 'everysec',
      nodeEnv: 'development',
      apiKeys: [],
      anonymousReads: true,
      rateLimits: { perKey: 5_000, perIp: 1_000, windowMs: 10_000, viewEntries: 500_000 },
      liveCostLimits: { perConnection: 2_000, perClient: 2_000 },
      trustProxyHops: 0,
      maxConnectionsPerIp: 256,
      httpTimeouts: { headersMs: 10_000, requestMs: 30_000 },
      corsOrigins: [],
      shutdownGraceMs: 10_000,
      logLevel: 'info',
      explorer: true,
      workers: 1,
      combinedViewTtlMs: 2_000,
      viewEntriesPerRequest: 1_000_000,
    });
  });

  it('keeps the explorer off in production unless EXPLORER turns it on', () => {
    const production = { NODE_ENV: 'production', REDIS_URL: 'redis://redis:6379', STANDINGS_API_KEYS: `admin:${ADMIN_KEY}` };
    expect(loadConfig(production).explorer).toBe(false);
    expect(loadConfig({ ...production, EXPLORER: 'true' }).explorer).toBe(true);
    expect(loadConfig({ EXPLORER: 'false' }).explorer).toBe(false);
    expect(() => loadConfig({ EXPLORER: 'yes' })).toThrow(/EXPLORER must be true or false, got "yes"/);
  });

  it('listens on every interface in production unless HOST says otherwise', () => {
    const production = { NODE_ENV: 'production', REDIS_URL: 'redis://redis:6379', STANDINGS_API_KEYS: `admin:${ADMIN_KEY}` };
    expect(loadConfig(production).host).toBe('0.0.0.0');
    expect(loadConfig({ ...production, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  it('keeps anonymous reads off in production, and needs keys there unless reads are open', () => {
    const production = { NODE_ENV: 'production', REDIS_URL: 'redis://redis:6379' };
    expect(loadConfig({ ...production, STANDINGS_API_KEYS: `admin:${ADMIN_KEY}` }).anonymousReads).toBe(false);
    expect(loadConfig({ ...production, ANONYMOUS_READS: 'true' }).apiKeys).toEqual([]);
    expect(() => loadConfig(production)).toThrow(/would refuse every request: set STANDINGS_API_KEYS/);
  });

  it('needs a Redis in production, where no private redis-server is started', () => {
    const production = { NODE_ENV: 'production', STANDINGS_API_KEYS: `admin:${ADMIN_KEY}` };
    expect(() => loadConfig(production)).toThrow(
      new ConfigError(['NODE_ENV=production needs a Redis: set REDIS_URL (one server), REDIS_CLUSTER_NODES (a Redis Cluster) or REDIS_SENTINELS (Sentinel)']),
    );
    expect(() => loadConfig({ ...production, REDIS_URL: '' })).toThrow(/needs a Redis/);
    expect(loadConfig({ ...production, REDIS_URL: 'redis://redis:6379' }).redisUrl).toBe('redis://redis:6379');
    expect(loadConfig({ ...production, REDIS_CLUSTER_NODES: '10.0.0.1:7000' }).redisCluster).not.toBeNull();
    // A bad REDIS_CLUSTER_NODES is reported as such, not as a missing Redis.
    expect(() => loadConfig({ ...production, REDIS_CLUSTER_NODES: '10.0.0.1' })).toThrow(
      new ConfigError(['REDIS_CLUSTER_NODES item 1: expected host:port with a port from 1 to 65535, e.g. 10.0.0.1:7000']),
    );
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({ redisUrl: null, redisCluster: null });
  });

  it('reports a production without keys and without Redis at once', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      new ConfigError([
        'NODE_ENV=production with no API keys and ANONYMOUS_READS off would refuse every request: set STANDINGS_API_KEYS or STANDINGS_API_KEYS_FILE',
        'NODE_ENV=production needs a Redis: set REDIS_URL (one server), REDIS_CLUSTER_NODES (a Redis Cluster) or REDIS_SENTINELS (Sentinel)',
      ]),
    );
  });

  it('reads every variable, treating empty as unset', () => {
    expect(loadConfig({
      PORT: '8080', HOST: '::', REDIS_URL: 'rediss://user:pw@redis.internal:6380/2', REDIS_DATA_DIR: '/var/lib/st',
      REDIS_READY_TIMEOUT_MS: '2500', REDIS_COMMAND_TIMEOUT_MS: '750', REDIS_APPENDFSYNC: 'always', NODE_ENV: 'test',
      STANDINGS_API_KEYS: `admin:${ADMIN_KEY}, writer@blitz-:${'w'.repeat(20)}`, ANONYMOUS_READS: 'false',
      RATE_LIMIT_PER_KEY: '100', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_WINDOW_MS: '60000', RATE_LIMIT_VIEW_ENTRIES: '500000', TRUST_PROXY_HOPS: '1', CORS_ORIGINS: 'https://game.example.com, http://localhost:3000',
      SHUTDOWN_GRACE_MS: '30000', LOG_LEVEL: 'warn', EXPLORER: '0', REDIS_MIN_REPLICAS: '1', REDIS_REPLICA_TIMEOUT_MS: '300', STANDINGS_WORKERS: '3', COMBINED_VIEW_TTL_MS: '500',
      VIEW_ENTRIES_PER_REQUEST: '250000', LIVE_COST_PER_CONNECTION: '2000', LIVE_COST_PER_CLIENT: '0',
      MAX_CONNECTIONS_PER_IP: '64', HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '20000',
    })).toEqual({
      port: 8080, host: '::', redisUrl: 'rediss://user:pw@redis.internal:6380/2', redisCluster: null, redisSentinel: null,
      redisReplication: { minReplicas: 1, timeoutMs: 300 }, redisDataDir: '/var/lib/st',
      redisReadyTimeoutMs: 2500, redisCommandTimeoutMs: 750, redisAppendfsync: 'always', nodeEnv: 'test',
      apiKeys: [
        { role: 'admin', boardPrefix: null, hash: hashKey(ADMIN_KEY) },
        { role: 'writer', boardPrefix: 'blitz-', hash: hashKey('w'.repeat(20)) },
      ],
      anonymousReads: false, rateLimits: { perKey: 100, perIp: 0, windowMs: 60_000, viewEntries: 500_000 },
      liveCostLimits: { perConnection: 2_000, perClient: 0 }, trustProxyHops: 1, corsOrigins: ['https://game.example.com', 'http://localhost:3000'],
      maxConnectionsPerIp: 64, httpTimeouts: { headersMs: 5_000, requestMs: 20_000 },
      shutdownGraceMs: 30_000, logLevel: 'warn', explorer: false, workers: 3, combinedViewTtlMs: 500, viewEntriesPerRequest: 250_000,
    });
    expect(loadConfig({ PORT: '', REDIS_URL: '' })).toMatchObject({ port: 4000, redisUrl: null });
  });

  it('takes the live cost limits as whole numbers, 0 meaning no limit', () => {
    expect(loadConfig({ LIVE_COST_PER_CONNECTION: '0', LIVE_COST_PER_CLIENT: '1' }).liveCostLimits).toEqual({ perConnection: 0, perClient: 1 });
    expect(() => loadConfig({ LIVE_COST_PER_CONNECTION: '-1', LIVE_COST_PER_CLIENT: '1e4' })).toThrow(
      new ConfigError([
        'LIVE_COST_PER_CONNECTION must be an integer from 0 to 1000000000, got "-1"',
        'LIVE_COST_PER_CLIENT must be an integer from 0 to 1000000000, got "1e4"',
      ]),
    );
  });

  it('takes CORS_ORIGINS only as exact origins', () => {
    for (const bad of ['https://game.example.com/', 'https://game.example.com/play', '*', 'game.example.com', 'ftp://files.example.com']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS item 1 must be an origin/);
    }
  });

  it('reports every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: '70000', NODE_ENV: 'prod', REDIS_URL: 'localhost:6379', REDIS_READY_TIMEOUT_MS: '-1' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'NODE_ENV must be one of development, production, test, got "prod"',
      'PORT must be an integer from 0 to 65535, got "70000"',
      'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://localhost:6379',
      'REDIS_READY_TIMEOUT_MS must be an integer from 1 to 600000, got "-1"',
    ]);
    expect((error as Error).message).toMatch(/^Invalid configuration:\n {2}- NODE_ENV/);
  });

  it('reads a Redis Cluster from REDIS_CLUSTER_NODES, with REDIS_PASSWORD', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'redis-1.internal:7000, 10.0.0.2:7001,[fd00::3]:7002', REDIS_PASSWORD: 's3cret' })).toMatchObject({
      redisUrl: null,
      redisCluster: {
        nodes: [{ host: 'redis-1.internal', port: 7000 }, { host: '10.0.0.2', port: 7001 }, { host: 'fd00::3', port: 7002 }],
        password: 's3cret',
      },
    });
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000' }).redisCluster).toEqual({ nodes: [{ host: '127.0.0.1', port: 7000 }], password: null });
  });

  it('refuses a bad REDIS_CLUSTER_NODES without echoing it, and one set with REDIS_URL', () => {
    expect(problems({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,redis://:s3cret@10.0.0.2:7000,10.0.0.3,,fd00::3:7000,h:0,h:65536' })).toEqual(
      [2, 3, 4, 5, 6, 7].map((item) => `REDIS_CLUSTER_NODES item ${item}: expected host:port with a port from 1 to 65535, e.g. 10.0.0.1:7000`),
    );
    expect(problems({ REDIS_URL: 'redis://localhost:6379', REDIS_CLUSTER_NODES: '10.0.0.1:7000' })).toEqual([
      'REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL for one Redis server, or REDIS_CLUSTER_NODES for a Redis Cluster',
    ]);
    expect(problems({ REDIS_URL: 'redis://localhost:6379', REDIS_PASSWORD: 's3cret' })).toEqual([
      'REDIS_PASSWORD is for REDIS_CLUSTER_NODES; with REDIS_URL, put the password in the URL (redis://:password@host:port)',
    ]);
  });

  it('reads a master behind Sentinels from REDIS_SENTINELS and REDIS_SENTINEL_NAME, with REDIS_PASSWORD', () => {
    const production = { NODE_ENV: 'production', STANDINGS_API_KEYS: `admin:${ADMIN_KEY}` };
    expect(loadConfig({ ...production, REDIS_SENTINELS: 's1:26379,10.0.0.2:26380', REDIS_SENTINEL_NAME: 'standings', REDIS_PASSWORD: 's3cret' })).toMatchObject({
      redisUrl: null,
      redisCluster: null,
      redisSentinel: { sentinels: [{ host: 's1', port: 26379 }, { host: '10.0.0.2', port: 26380 }], name: 'standings', password: 's3cret' },
    });
    expect(problems({ REDIS_SENTINELS: 's1:26379' })).toEqual([
      'REDIS_SENTINELS needs REDIS_SENTINEL_NAME: the master group the sentinels monitor, e.g. mymaster',
    ]);
    expect(problems({ REDIS_SENTINEL_NAME: 'standings' })).toEqual([
      "REDIS_SENTINEL_NAME is set without REDIS_SENTINELS (the sentinels' host:port list)",
    ]);
    expect(problems({ REDIS_SENTINELS: 's1', REDIS_SENTINEL_NAME: 'm' })).toEqual([
      'REDIS_SENTINELS item 1: expected host:port with a port from 1 to 65535, e.g. 10.0.0.1:26379',
    ]);
    expect(problems({ REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'm', REDIS_URL: 'redis://r:6379' })).toEqual([
      'REDIS_SENTINELS is set with REDIS_URL or REDIS_CLUSTER_NODES: set only one of the three',
    ]);
  });

  it('reads REDIS_MIN_REPLICAS, with a replica timeout that leaves commands queued behind it time to answer', () => {
    expect(loadConfig({ REDIS_MIN_REPLICAS: '2', REDIS_COMMAND_TIMEOUT_MS: '4000' }).redisReplication).toEqual({ minReplicas: 2, timeoutMs: 1_000 });
    expect(problems({ REDIS_MIN_REPLICAS: '1', REDIS_REPLICA_TIMEOUT_MS: '1500' })).toEqual([
      'REDIS_REPLICA_TIMEOUT_MS must be at most half of REDIS_COMMAND_TIMEOUT_MS (2000), so that commands queued behind a write waiting for its replicas still get their answers',
    ]);
    expect(problems({ REDIS_MIN_REPLICAS: '-1' })).toEqual(['REDIS_MIN_REPLICAS must be an integer from 0 to 16, got "-1"']);
  });

  it('reads COMBINED_VIEW_TTL_MS once, from 0 (every read builds) to 10 minutes', () => {
    expect(loadConfig({}).combinedViewTtlMs).toBe(2_000);
    expect(loadConfig({ COMBINED_VIEW_TTL_MS: '0' }).combinedViewTtlMs).toBe(0);
    expect(() => loadConfig({ COMBINED_VIEW_TTL_MS: '600001' })).toThrow(/COMBINED_VIEW_TTL_MS/);
    expect(() => loadConfig({ COMBINED_VIEW_TTL_MS: 'soon' })).toThrow(/COMBINED_VIEW_TTL_MS/);
  });

  it('reads the combined views\' limits: VIEW_ENTRIES_PER_REQUEST from 1, RATE_LIMIT_VIEW_ENTRIES from 0 (no limit)', () => {
    expect(loadConfig({ VIEW_ENTRIES_PER_REQUEST: '1', RATE_LIMIT_VIEW_ENTRIES: '0' })).toMatchObject({
      viewEntriesPerRequest: 1, rateLimits: { viewEntries: 0 },
    });
    expect(problems({ VIEW_ENTRIES_PER_REQUEST: '0' })).toEqual(['VIEW_ENTRIES_PER_REQUEST must be an integer from 1 to 1000000000, got "0"']);
    expect(problems({ RATE_LIMIT_VIEW_ENTRIES: 'many' })).toEqual(['RATE_LIMIT_VIEW_ENTRIES must be an integer from 0 to 1000000000000, got "many"']);
  });

  it('caps connections per address unless proxies are trusted, where every connection is a proxy\'s', () => {
    expect(loadConfig({ TRUST_PROXY_HOPS: '1' }).maxConnectionsPerIp).toBe(0);
    expect(loadConfig({ TRUST_PROXY_HOPS: '1', MAX_CONNECTIONS_PER_IP: '5000' }).maxConnectionsPerIp).toBe(5_000);
    expect(loadConfig({ MAX_CONNECTIONS_PER_IP: '0' }).maxConnectionsPerIp).toBe(0);
    expect(problems({ MAX_CONNECTIONS_PER_IP: '-1' })).toEqual(['MAX_CONNECTIONS_PER_IP must be an integer from 0 to 1000000, got "-1"']);
    expect(problems({ MAX_CONNECTIONS_PER_IP: 'many' })).toEqual(['MAX_CONNECTIONS_PER_IP must be an integer from 0 to 1000000, got "many"']);
  });

  it('reads the HTTP timeouts, the headers\' no longer than the whole request\'s', () => {
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '30000' }).httpTimeouts).toEqual({ headersMs: 30_000, requestMs: 30_000 });
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '3600000' }).httpTimeouts).toEqual({ headersMs: 10_000, requestMs: 3_600_000 });
    expect(problems({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '15000' })).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS (20000) must be at most HTTP_REQUEST_TIMEOUT_MS (15000): the headers are part of the request',
    ]);
    expect(problems({ HTTP_HEADERS_TIMEOUT_MS: '0' })).toEqual(['HTTP_HEADERS_TIMEOUT_MS must be an integer from 100 to 600000, got "0"']);
    expect(problems({ HTTP_REQUEST_TIMEOUT_MS: '3600001' })).toEqual(['HTTP_REQUEST_TIMEOUT_MS must be an integer from 100 to 3600000, got "3600001"']);
  });

  it('reads STANDINGS_WORKERS, "auto" being one per core', () => {
    expect(loadConfig({ STANDINGS_WORKERS: 'auto' }).workers).toBe(os.availableParallelism());
    expect(loadConfig({ STANDINGS_WORKERS: '4' }).workers).toBe(4);
    expect(problems({ STANDINGS_WORKERS: '0' })).toEqual(['STANDINGS_WORKERS (or "auto") must be an integer from 1 to 256, got "0"']);
    expect(problems({ STANDINGS_WORKERS: 'all' })).toEqual(['STANDINGS_WORKERS (or "auto") must be an integer from 1 to 256, got "all"']);
  });

  it.each([['PORT', '4000.5'], ['PORT', '0x10'], ['PORT', ' 80']])('refuses %s=%j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  });

  it('reads hashed keys from STANDINGS_API_KEYS_FILE', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standings-keys-'));
    const file = path.join(dir, 'keys');
    try {
      fs.writeFileSync(file, `# game backends\nwriter@blitz- ${hashKey(ADMIN_KEY).toString('hex')}\n\nreader ${'ab'.repeat(32)}  # clients\n`);
      expect(loadConfig({ STANDINGS_API_KEYS_FILE: file }).apiKeys).toEqual([
        { role: 'writer', boardPrefix: 'blitz-', hash: hashKey(ADMIN_KEY) },
        { role: 'reader', boardPrefix: null, hash: Buffer.from('ab'.repeat(32), 'hex') },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports bad keys without echoing them', () => {
    let error: unknown;
    try {
      loadConfig({
        STANDINGS_API_KEYS: `root:${ADMIN_KEY},admin:short-secret,reader@b:${ADMIN_KEY},admin:${ADMIN_KEY},admin:${ADMIN_KEY}`,
        STANDINGS_API_KEYS_FILE: '/nonexistent/keys', ANONYMOUS_READS: 'yes', REDIS_APPENDFSYNC: 'no', LOG_LEVEL: 'loud',
      });
    } catch (err) {
      error = err;
    }
    expect((error as ConfigError).problems).toEqual([
      'REDIS_APPENDFSYNC must be one of everysec, always, got "no"',
      'STANDINGS_API_KEYS item 1: the role must be one of reader, writer, admin, got "root"',
      'STANDINGS_API_KEYS item 2: expected role[@boardPrefix]:key with a key of at least 16 characters other than whitespace, "," and ":"',
      'STANDINGS_API_KEYS item 3: a reader key cannot have a board prefix (reads are not limited to boards)',
      expect.stringMatching(/^STANDINGS_API_KEYS_FILE cannot be read: ENOENT/),
      'an API key is configured more than once',
      'ANONYMOUS_READS must be true or false, got "yes"',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ]);
    expect((error as Error).message).not.toContain(ADMIN_KEY);
  });
});

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}
