/**
 * The entries of a sorted set from its DUMP payload (Redis 7's serialization format, as RDB files
 * hold it). One DUMP hands a whole ranking over as one string: Redis writes it in a fraction of
 * the time ZRANGE WITHSCORES takes to answer, and Node reads it without a reply value per entry.
 *   payload  the object's type byte, the object, then 2 bytes of RDB version and 8 of CRC64
 *   type 5   (ZSET_2, a skiplist) length, then per entry a string (the member) and the score as
 *            an 8-byte little-endian double
 *   type 17  (ZSET_LISTPACK, at most zset-max-listpack-entries) a string holding a listpack of
 *            member, score, member, score... (a score as an integer when it is one, else as text)
 * Strings are a length, an integer (int8/16/32) written as text, or LZF-compressed bytes.
 */
const ZSET_2 = 5;
const ZSET_LISTPACK = 17;
const TRAILER_BYTES = 10;

export interface ZsetEntries {
  members: Buffer[];
  /** The stored scores, in the order of `members`. */
  scores: number[];
}

/** A sorted set's entries from DUMP's payload (null: no such key). Throws on a payload of another type. */
export function zsetOfDump(payload: Buffer | null): ZsetEntries {
  const entries: ZsetEntries = { members: [], scores: [] };
  if (payload === null) return entries;
  const reader = new Reader(payload);
  const type = payload[reader.pos++];
  if (type === ZSET_2) {
    for (let n = reader.length(); n > 0; n--) {
      entries.members.push(reader.string());
      entries.scores.push(payload.readDoubleLE(reader.pos));
      reader.pos += 8;
    }
  } else if (type === ZSET_LISTPACK) {
    readListpack(reader.string(), entries);
  } else {
    throw new Error(`DUMP of a sorted set gave an object of RDB type ${type}`);
  }
  if (reader.pos !== payload.length - TRAILER_BYTES) throw new Error('DUMP of a sorted set: unexpected payload length');
  return entries;
}

class Reader {
  pos = 0;
  private special = -1;

  constructor(private readonly buf: Buffer) {}

  /** A length; for a string's header, an encoding (`special`) instead when its two top bits are set. */
  length(): number {
    const { buf } = this;
    const first = buf[this.pos];
    this.special = -1;
    switch (first >> 6) {
      case 0:
        this.pos += 1;
        return first & 0x3f;
      case 1:
        this.pos += 2;
        return ((first & 0x3f) << 8) | buf[this.pos - 1];
      case 2:
        if (first === 0x80) {
          this.pos += 5;
          return buf.readUInt32BE(this.pos - 4);
        }
        this.pos += 9;
        return Number(buf.readBigUInt64BE(this.pos - 8));
      default:
        this.pos += 1;
        this.special = first & 0x3f;
        return 0;
    }
  }

  string(): Buffer {
    const { buf } = this;
    const length = this.length();
    const at = this.pos;
    switch (this.special) {
      case -1:
        this.pos += length;
        return buf.subarray(at, this.pos);
      case 0:
        this.pos += 1;
        return Buffer.from(String(buf.readInt8(at)));
      case 1:
        this.pos += 2;
        return Buffer.from(String(buf.readInt16LE(at)));
      case 2:
        this.pos += 4;
        return Buffer.from(String(buf.readInt32LE(at)));
      case 3: {
        const compressed = this.length();
        const size = this.length();
        this.pos += compressed;
        return lzfDecompress(buf.subarray(this.pos - compressed, this.pos), size);
      }
      default:
        throw new Error(`DUMP: unknown string encoding ${this.special}`);
    }
  }
}

/** LZF (liblzf's lzf_decompress), with which Redis compresses strings in its serialization. */
function lzfDecompress(input: Buffer, size: number): Buffer {
  const out = Buffer.alloc(size);
  let i = 0;
  let o = 0;
  while (i < input.length) {
    const ctrl = input[i++];
    if (ctrl < 32) {
      input.copy(out, o, i, i + ctrl + 1);
      i += ctrl + 1;
      o += ctrl + 1;
    } else {
      let length = ctrl >> 5;
      if (length === 7) length += input[i++];
      let ref = o - ((ctrl & 0x1f) << 8) - 1 - input[i++];
      // Back references may overlap what they write: byte by byte.
      for (let end = o + length + 2; o < end;) out[o++] = out[ref++];
    }
  }
  if (o !== size) throw new Error('DUMP: corrupt LZF string');
  return out;
}

/** Member, score, member, score... from a listpack: 6 header bytes, entries each followed by its length backwards (1-5 bytes), 0xFF. */
function readListpack(lp: Buffer, entries: ZsetEntries): void {
  let pos = 6;
  for (let k = 0; lp[pos] !== 0xff; k++) {
    const start = pos;
    const b = lp[pos];
    let text: Buffer | null = null;
    let int = 0;
    if (b < 0x80) {
      int = b;
      pos += 1;
    } else if (b < 0xc0) {
      pos += 1 + (b & 0x3f);
      text = lp.subarray(start + 1, pos);
    } else if (b < 0xe0) {
      int = (((b & 0x1f) << 8) | lp[pos + 1]) << 19 >> 19;
      pos += 2;
    } else if (b < 0xf0) {
      pos += 2 + (((b & 0x0f) << 8) | lp[pos + 1]);
      text = lp.subarray(start + 2, pos);
    } else if (b === 0xf0) {
      pos += 5 + lp.readUInt32LE(pos + 1);
      text = lp.subarray(start + 5, pos);
    } else if (b === 0xf1) {
      int = lp.readInt16LE(pos + 1);
      pos += 3;
    } else if (b === 0xf2) {
      int = lp.readIntLE(pos + 1, 3);
      pos += 4;
    } else if (b === 0xf3) {
      int = lp.readInt32LE(pos + 1);
      pos += 5;
    } else if (b === 0xf4) {
      int = Number(lp.readBigInt64LE(pos + 1));
      pos += 9;
    } else {
      throw new Error(`DUMP: unknown listpack encoding ${b}`);
    }
    const size = pos - start;
    pos += size < 128 ? 1 : size < 16384 ? 2 : size < 2097152 ? 3 : size < 268435456 ? 4 : 5;
    if (k % 2 === 0) entries.members.push(text ?? Buffer.from(String(int)));
    else entries.scores.push(text === null ? int : Number(text.toString('latin1')));
  }
}
