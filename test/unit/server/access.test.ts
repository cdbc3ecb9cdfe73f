import type { IncomingMessage } from 'node:http';
import { ApiKeys, hashKey, parseKeyList } from '../../../src/server/auth/apiKeys';
import { authenticate } from '../../../src/server/auth/authenticate';
import type { Principal } from '../../../src/domain/access';
import { clientAddress, RateLimiter } from '../../../src/server/rateLimit';
import type { RateLimitStore } from '../../../src/store/rateLimitStore';

const ADMIN = 'admin-key-0123456789';
const TENANT = 'tenant-key-012345678';

describe('STANDINGS_API_KEYS', () => {
  it('reads role[@boardPrefix]:key pairs; a prefix may hold colons, since board ids may', () => {
    const problems: string[] = [];
    expect(parseKeyList(` admin:${ADMIN} ,, writer@league:eu.:${TENANT}`, problems)).toEqual([
      { role: 'admin', boardPrefix: null, hash: hashKey(ADMIN) },
      { role: 'writer', boardPrefix: 'league:eu.', hash: hashKey(TENANT) },
    ]);
    expect(problems).toEqual([]);
  });

  it('refuses a prefix that no board id could start with', () => {
    const problems: string[] = [];
    parseKeyList(`writer@{x}:${TENANT},admin@:${ADMIN}`, problems);
    expect(problems).toEqual([
      'STANDINGS_API_KEYS item 1: a board prefix is 1-127 characters of letters, digits and -_.:, got "{x}"',
      'STANDINGS_API_KEYS item 2: a board prefix is 1-127 characters of letters, digits and -_.:, got ""',
    ]);
  });
});

describe('authenticate', () => {
  const keys = new ApiKeys(parseKeyList(`admin:${ADMIN},writer@tenant-:${TENANT}`, []));
  const closed = { keys, anonymousReads: false };

  it('finds the key\'s role and prefix, and names the key by its hash only', () => {
    expect(authenticate(`Bearer ${TENANT}`, closed)).toEqual({
      role: 'writer', boardPrefix: 'tenant-', keyId: hashKey(TENANT).toString('hex').slice(0, 12),
    });
    expect(authenticate(`BEARER   ${ADMIN}`, closed).role).toBe('admin');
  });

  it('is an anonymous reader without credentials only where the deployment allows it', () => {
    expect(authenticate(undefined, { keys, anonymousReads: true })).toEqual({ role: 'reader', boardPrefix: null, keyId: null });
    expect(authenticate('', { keys, anonymousReads: true }).keyId).toBeNull();
    expect(() => authenticate(undefined, closed)).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
  });

  it.each([
    ['an unknown key', `Bearer ${ADMIN}x`],
    ['another scheme', `Basic ${ADMIN}`],
    ['no scheme', ADMIN],
    ['a non-string (WebSocket params are any JSON)', { key: ADMIN }],
  ])('refuses %s, even with anonymous reads on', (_case, authorization) => {
    expect(() => authenticate(authorization, { keys, anonymousReads: true })).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
  });
});

describe('ApiKeys.find', () => {
  it('finds a key sent again without hashing it again, and never keeps an unknown one', () => {
    const keys = new ApiKeys(parseKeyList(`admin:${ADMIN},writer@tenant-:${TENANT}`, []));
    const hashed = jest.spyOn(require('node:crypto'), 'hash');
    const first = keys.find(TENANT);
    expect(keys.find(TENANT)).toBe(first);
    expect(hashed).toHaveBeenCalledTimes(1);
    // Unknown keys take the hashed path every time, however many come.
    for (let i = 0; i < 300; i++) expect(keys.find(`${TENANT}${i}`)).toBeUndefined();
    expect(keys.find(`${TENANT}0`)).toBeUndefined();
    expect(hashed).toHaveBeenCalledTimes(302);
    expect(keys.find(ADMIN)?.role).toBe('admin');
    expect(keys.find(TENANT)).toBe(first);
    hashed.mockRestore();
  });
});

describe('clientAddress', () => {
  const request = (peer: string, forwardedFor?: string) =>
    ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

  it('is the peer unless proxies are trusted, then the entry that many hops from the right', () => {
    expect(clientAddress(request('10.0.0.9', '198.51.100.7'), 0)).toBe('10.0.0.9');
    expect(clientAddress(request('10.0.0.9', '203.0.113.5, 198.51.100.7'), 1)).toBe('198.51.100.7');
    expect(clientAddress(request('10.0.0.9', '203.0.113.5, 198.51.100.7'), 2)).toBe('203.0.113.5');
    // Fewer entries than trusted hops: the leftmost there is.
    expect(clientAddress(request('10.0.0.9', '198.51.100.7'), 3)).toBe('198.51.100.7');
    expect(clientAddress(request('10.0.0.9'), 1)).toBe('10.0.0.9');
  });

  it('takes the peer when the trusted entry is not an address', () => {
    expect(clientAddress(request('10.0.0.9', 'st:rl:anything-i-like'), 1)).toBe('10.0.0.9');
    expect(clientAddress(request('10.0.0.9', '2001:db8::1'), 1)).toBe('2001:db8::1');
  });
});

describe('RateLimiter.check', () => {
  /** Records what would be counted in Redis; every window has room. */
  const limiter = (perKey: number, perIp: number) => {
    const counted: string[] = [];
    const store = { hit: async (scope: string, id: string) => (counted.push(`${scope}:${id}`), { count: 1, resetInMs: 1_000 }) };
    return { counted, limiter: new RateLimiter(store as unknown as RateLimitStore, { perKey, perIp, windowMs: 10_000 }, 0) };
  };
  const request = { socket: { remoteAddress: '10.0.0.9' }, headers: {} } as unknown as IncomingMessage;
  const writer: Principal = { role: 'writer', boardPrefix: null, keyId: 'w1' };
  const reader: Principal = { role: 'reader', boardPrefix: null, keyId: 'r1' };

  it('gives nothing to wait for when no limit applies to the request, and counts nothing', () => {
    const { counted, limiter: noKeyLimit } = limiter(0, 100);
    expect(noKeyLimit.check(writer, request)).toBeUndefined();
    expect(limiter(0, 0).limiter.check(reader, request)).toBeUndefined();
    expect(counted).toEqual([]);
  });

  it('counts a writer\'s key, and a reader by its address alone (one reader key is shared by every game client)', async () => {
    const { counted, limiter: both } = limiter(5, 100);
    await expect(both.check(writer, request)).resolves.toBeUndefined();
    expect(counted).toEqual(['key:w1']);
    await expect(both.check(reader, request)).resolves.toBeUndefined();
    expect(counted).toEqual(['key:w1', 'ip:10.0.0.9']);
  });
});
