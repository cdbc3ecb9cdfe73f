/**
 * The bytes of a sorted-set member: `token + player code`.
 *
 * Equal scores are ordered by Redis with memcmp on the member, so the token makes the tie order:
 *   7 bytes  moment of reaching, µs since the epoch, big-endian (earlier sorts first)
 *   1+ bytes import sequence, an order-preserving prefix-free varint: 0 for live submissions
 *            (their moments are unique per board), 1.. for imported moments in arrival order
 * The player code follows: type byte 0 + the raw id, or type byte n (1..7) + the id as an
 * n-byte big-endian integer when the id is a canonical decimal of up to 15 digits. That keeps
 * a live member with an 8-digit id at 13 bytes, inside jemalloc's 16-byte class (see
 * BENCHMARKS.md, "Memory per member", for what that saves at 1M members). Bucket hashes keep the token alone, and
 * drop a 0 sequence byte (submit.lua: storedToken; scripts/includes/members.lua: memberOf).
 *
 * Lua builds members (scripts/includes/members.lua: playerCode, memberOf; submit.lua: token);
 * Node only decodes them (and compares them whole, for a combined view's ties: combiner.ts).
 */
const MOMENT_BYTES = 7;

interface DecodedMember {
  playerId: string;
  reachedAtMicros: number;
  /** Length of the token at the start of the member. */
  tokenLength: number;
}

export function decodeMember(member: Buffer): DecodedMember {
  const tokenLength = tokenLengthOf(member);
  return { playerId: playerIdOf(member, tokenLength), reachedAtMicros: momentOf(member), tokenLength };
}

/** A member's moment (µs): its first 7 bytes, big-endian (6 at a time is what Buffer reads). */
export const momentOf = (member: Buffer): number => member.readUIntBE(0, 6) * 256 + member[6];

/** How many bytes of the member its token takes: the moment, then the sequence's first byte and the more it announces. */
export function tokenLengthOf(member: Buffer): number {
  const first = member[MOMENT_BYTES];
  return first < 0x80 ? MOMENT_BYTES + 1 : MOMENT_BYTES + 1 + (first - 0x80);
}

/**
 * What tells the player of a member whose token takes `tokenLength` bytes from others, at the
 * least cost: the number of a numeric id, else the id's bytes (latin1 text).
 */
export function playerKeyOf(member: Buffer, tokenLength: number): number | string {
  const type = member[tokenLength];
  if (type === 0) return member.toString('latin1', tokenLength + 1);
  let n = 0;
  for (let i = tokenLength + 1; i <= tokenLength + type; i++) n = n * 256 + member[i];
  return n;
}

/** The player id of a member whose token takes `tokenLength` bytes. */
export function playerIdOf(member: Buffer, tokenLength: number): string {
  const key = playerKeyOf(member, tokenLength);
  return typeof key === 'number' ? String(key) : member.toString('utf8', tokenLength + 1);
}
