import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Principal, type Role, ROLES } from '../../domain/access';
import { setBounded } from '../boundedMap';

/** A configured key. Only its SHA-256 is kept, so a heap dump or a log line cannot leak it. */
export interface ApiKey {
  role: Role;
  /** Boards the key may change are those whose id starts with this; null: any. */
  boardPrefix: string | null;
  hash: Buffer;
}

/** Keys are random secrets, not passwords: a plain SHA-256 is enough to keep them out of the configuration. */
export const hashKey = (key: string): Buffer => hash('sha256', key, 'buffer');

/** A fresh key for `npm start` in development when none is configured. */
export const generateKey = (): string => randomBytes(24).toString('base64url');

const MIN_KEY_LENGTH = 16;
// Keys may hold anything but the separators of STANDINGS_API_KEYS; prefixes are the start of a board id.
const KEY_PATTERN = /^[^\s,:]+$/;
const PREFIX_PATTERN = /^[A-Za-z0-9_.:-]{1,127}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * "role" or "role@boardPrefix": reader, writer or admin, with an optional board id prefix that
 * limits the boards a writer or admin key may change (reads are never limited to boards).
 */
function parseGrant(text: string, where: string, problems: string[]): Pick<ApiKey, 'role' | 'boardPrefix'> | undefined {
  const at = text.indexOf('@');
  const role = (at < 0 ? text : text.slice(0, at)) as Role;
  const boardPrefix = at < 0 ? null : text.slice(at + 1);
  if (!ROLES.includes(role)) {
    problems.push(`${where}: the role must be one of ${ROLES.join(', ')}, got "${role}"`);
    return undefined;
  }
  if (boardPrefix !== null && (role === 'reader' || !PREFIX_PATTERN.test(boardPrefix))) {
    problems.push(
      role === 'reader'
        ? `${where}: a reader key cannot have a board prefix (reads are not limited to boards)`
        : `${where}: a board prefix is 1-127 characters of letters, digits and -_.:, got "${boardPrefix}"`,
    );
    return undefined;
  }
  return { role, boardPrefix };
}

/**
 * STANDINGS_API_KEYS: comma-separated `role[@boardPrefix]:key`, e.g.
 * `admin:Kx8...,writer@blitz-:Qm2...`. A key is at least 16 characters other than whitespace,
 * commas and colons. Problems are collected, never echoing a key.
 */
export function parseKeyList(text: string, problems: string[]): ApiKey[] {
  const keys: ApiKey[] = [];
  text.split(',').map((item) => item.trim()).filter(Boolean).forEach((item, i) => {
    const where = `STANDINGS_API_KEYS item ${i + 1}`;
    const colon = item.lastIndexOf(':');
    const key = item.slice(colon + 1);
    if (colon < 0 || !KEY_PATTERN.test(key) || key.length < MIN_KEY_LENGTH) {
      problems.push(`${where}: expected role[@boardPrefix]:key with a key of at least ${MIN_KEY_LENGTH} characters other than whitespace, "," and ":"`);
      return;
    }
    const grant = parseGrant(item.slice(0, colon), where, problems);
    if (grant) keys.push({ ...grant, hash: hashKey(key) });
  });
  return keys;
}

/**
 * STANDINGS_API_KEYS_FILE: one key a line, `role[@boardPrefix] <sha256 of the key, hex>`, so the
 * file holds no secret (`printf %s "$KEY" | sha256sum`). Blank lines and `#` comments are skipped.
 */
export function parseKeyFile(text: string, file: string, problems: string[]): ApiKey[] {
  const keys: ApiKey[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const where = `${file} line ${i + 1}`;
    const [grantText, hex, ...rest] = line.split(/\s+/);
    if (!hex || !SHA256_HEX.test(hex) || rest.length > 0) {
      problems.push(`${where}: expected "role[@boardPrefix] <64 hex digits of the key's SHA-256>"`);
      return;
    }
    const grant = parseGrant(grantText, where, problems);
    if (grant) keys.push({ ...grant, hash: Buffer.from(hex, 'hex') });
  });
  return keys;
}

/** Keys accepted lately whose principal is kept; past that the oldest is dropped. */
const MAX_ACCEPTED_KEYS = 256;

/** The configured keys, looked up without leaking through timing which one (if any) matched. */
export class ApiKeys {
  private readonly entries: { key: ApiKey; principal: Principal }[];
  /**
   * By presented key, the principal of a key that matched: a client sends the same key with every
   * request, and hashing it was a per-request cost the profile showed. Only matched keys are kept,
   * so unknown keys (guesses) always take the hashed, constant-time path and cannot push out the
   * real ones; a hit tells a caller only what the answer does, that its key is valid.
   */
  private readonly accepted = new Map<string, Principal>();

  constructor(keys: readonly ApiKey[]) {
    this.entries = keys.map((key) => ({
      key,
      // The hash's first 12 hex digits name the key in logs, metrics and rate limits.
      principal: { role: key.role, boardPrefix: key.boardPrefix, keyId: key.hash.toString('hex').slice(0, 12) },
    }));
  }

  /**
   * The principal of a presented key, or undefined. Hashing first makes every comparison the same
   * length, and every configured key is compared, whether or not an earlier one matched.
   */
  find(presented: string): Principal | undefined {
    const known = this.accepted.get(presented);
    if (known) return known;
    const hash = hashKey(presented);
    let found: Principal | undefined;
    for (const { key, principal } of this.entries) {
      if (timingSafeEqual(key.hash, hash) && found === undefined) found = principal;
    }
    if (found) setBounded(this.accepted, presented, found, MAX_ACCEPTED_KEYS);
    return found;
  }
}
