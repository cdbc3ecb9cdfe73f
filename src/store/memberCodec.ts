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
 * BENCHMARKS.md for what that saves at 1M members). Bucket hashes keep the token alone, and
 * drop a 0 sequence byte (submit.lua: storedToken; scripts/includes/members.lua: memberOf).
 *
 * Lua builds members (scripts/includes/members.lua: playerCode, memberOf; submit.lua: token);
 * Node only decodes them.
 */
const MOMENT_BYTES = 7;

interface DecodedMember {
  playerId: string;
  reachedAtMicros: number;
  /** Length of the token at the start of the member. */
  tokenLength: number;
}

export function decodeMember(member: Buffer): DecodedMember {
  const reachedAtMicros = member.readUIntBE(0, 6) * 256 + member[6];
  const first = member[MOMENT_BYTES];
  const tokenLength = first < 0x80 ? MOMENT_BYTES + 1 : MOMENT_BYTES + 1 + (first - 0x80);
  return { playerId: decodePlayer(member.subarray(tokenLength)), reachedAtMicros, tokenLength };
}

function decodePlayer(code: Buffer): string {
  const type = code[0];
  if (type === 0) return code.toString('utf8', 1);
  let n = 0;
  for (let i = 1; i <= type; i++) n = n * 256 + code[i];
  return String(n);
}
