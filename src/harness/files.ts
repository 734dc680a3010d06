/**
 * Files the account checks send and receive: a tiny PNG made on the spot (team logo,
 * ACCT-5) and a zip reader that checks an export is a whole, readable zip (ACCT-7):
 * yauzl reads the central directory and inflates every entry, this module checks each
 * entry's CRC-32 (yauzl leaves that to its caller).
 */
import { deflateSync } from 'node:zlib';
import yauzl from 'yauzl';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer, crc = 0): number {
  let c = ~crc >>> 0;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid `size`×`size` RGB PNG of one colour: distinct colours give distinct bytes. */
export function tinyPng(rgb: readonly [number, number, number], size = 4): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, no filter, no interlace
  const line = Buffer.from([0, ...Array.from({ length: size }, () => rgb).flat()]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => line));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface ZipEntry {
  name: string;
  size: number;
  data: Buffer;
}

/** The entries of a zip, each inflated and CRC-checked; a string says why the bytes are not a valid zip. */
export async function readZip(buf: Buffer, maxEntries = 10_000): Promise<ZipEntry[] | string> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true, strictFileNames: false, validateEntrySizes: true });
  } catch (e) {
    return `not a zip (${(e as Error).message})`;
  }
  if (zip.entryCount > maxEntries) {
    zip.close();
    return `${zip.entryCount} entries (more than ${maxEntries})`;
  }
  return new Promise((resolve) => {
    const out: ZipEntry[] = [];
    const fail = (why: string) => {
      zip.close();
      resolve(why);
    };
    zip.on('error', (e: Error) => fail(`unreadable zip (${e.message})`));
    zip.on('end', () => resolve(out));
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) {
        out.push({ name: entry.fileName, size: 0, data: Buffer.alloc(0) });
        zip.readEntry();
        return;
      }
      zip.openReadStream(entry, (err, stream) => {
        if (err) return fail(`entry ${entry.fileName}: ${err.message}`);
        const parts: Buffer[] = [];
        stream.on('data', (d: Buffer) => parts.push(d));
        stream.on('error', (e: Error) => fail(`entry ${entry.fileName}: ${e.message}`));
        stream.on('end', () => {
          const data = Buffer.concat(parts);
          if (crc32(data) !== entry.crc32) return fail(`entry ${entry.fileName}: CRC-32 mismatch`);
          out.push({ name: entry.fileName, size: data.length, data });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}
