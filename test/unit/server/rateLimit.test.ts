// Who a request is counted as (clientAddress) and what the rate limiter counts (src/server/rateLimit.ts).
import type { IncomingMessage } from 'node:http';
import { clientAddress, RateLimiter } from '../../../src/server/rateLimit';
import type { Principal } from '../../../src/domain/access';
import type { RateLimitStore } from '../../../src/store/rateLimitStore';

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
