// API keys (STANDINGS_API_KEYS, src/server/auth/apiKeys.ts) and how a request's key becomes its principal (src/server/auth/authenticate.ts).
import { ApiKeys, hashKey, parseKeyList } from '../../../src/server/auth/apiKeys';
import { authenticate } from '../../../src/server/auth/authenticate';

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
