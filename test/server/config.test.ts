import * as path from 'node:path';
import { ConfigError, loadConfig } from '../../src/server/config';

describe('loadConfig', () => {
  it('has defaults for a developer machine', () => {
    expect(loadConfig({})).toEqual({
      port: 4000,
      host: '127.0.0.1',
      redisUrl: null,
      redisDataDir: path.resolve('.data', 'redis'),
      redisReadyTimeoutMs: 10_000,
      nodeEnv: 'development',
    });
  });

  it('listens on every interface in production unless HOST says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  it('reads every variable, treating empty as unset', () => {
    expect(loadConfig({
      PORT: '8080', HOST: '::', REDIS_URL: 'rediss://user:pw@redis.internal:6380/2', REDIS_DATA_DIR: '/var/lib/st',
      REDIS_READY_TIMEOUT_MS: '2500', NODE_ENV: 'test',
    })).toEqual({
      port: 8080, host: '::', redisUrl: 'rediss://user:pw@redis.internal:6380/2', redisDataDir: '/var/lib/st',
      redisReadyTimeoutMs: 2500, nodeEnv: 'test',
    });
    expect(loadConfig({ PORT: '', REDIS_URL: '' })).toMatchObject({ port: 4000, redisUrl: null });
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

  it.each([['PORT', '4000.5'], ['PORT', '0x10'], ['PORT', ' 80']])('refuses %s=%j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  });
});
