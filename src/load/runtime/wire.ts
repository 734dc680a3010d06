/**
 * Byte-level reader and writer over a region of a SharedArrayBuffer. VUs and the I/O thread
 * exchange requests and responses through such regions instead of postMessage: a structured
 * clone of a request and its response cost more than the HTTP exchange itself, and both
 * sides would allocate and collect the cloned objects. A writer that runs out of room says
 * so (`ok` false) and the caller falls back to a MessagePort; it never writes past its end.
 */

/** Buffer's own UTF-8 codecs, without the argument checks of write()/toString() (hot path). */
interface RawBuffer extends Buffer {
  utf8Write(s: string, offset: number, length: number): number;
  utf8Slice(start: number, end: number): string;
}

export class Writer {
  private readonly dv: DataView;
  private readonly buf: RawBuffer;
  off: number;
  ok = true;

  constructor(
    sab: SharedArrayBuffer,
    readonly start: number,
    readonly end: number,
  ) {
    this.dv = new DataView(sab);
    this.buf = Buffer.from(sab) as RawBuffer;
    this.off = start;
  }

  reset(): this {
    this.off = this.start;
    this.ok = true;
    return this;
  }

  private room(n: number): boolean {
    if (this.ok && this.off + n <= this.end) return true;
    this.ok = false;
    return false;
  }

  u8(v: number): void {
    if (this.room(1)) {
      this.dv.setUint8(this.off, v);
      this.off += 1;
    }
  }
  u16(v: number): void {
    if (this.room(2)) {
      this.dv.setUint16(this.off, v);
      this.off += 2;
    }
  }
  u32(v: number): void {
    if (this.room(4)) {
      this.dv.setUint32(this.off, v);
      this.off += 4;
    }
  }
  f64(v: number): void {
    if (this.room(8)) {
      this.dv.setFloat64(this.off, v);
      this.off += 8;
    }
  }

  /** UTF-8 with a 32-bit length prefix. */
  str(s: string): void {
    if (!this.ok) return;
    // s.length * 3 bounds the UTF-8 size; measure exactly only when that bound does not fit.
    if (this.off + 4 + s.length * 3 > this.end && this.off + 4 + Buffer.byteLength(s) > this.end) {
      this.ok = false;
      return;
    }
    const n = s.length === 0 ? 0 : this.buf.utf8Write(s, this.off + 4, this.end - this.off - 4);
    this.dv.setUint32(this.off, n);
    this.off += 4 + n;
  }

  /** Raw bytes with a 32-bit length prefix. */
  bytes(b: Uint8Array): void {
    if (!this.room(4 + b.byteLength)) return;
    this.dv.setUint32(this.off, b.byteLength);
    this.buf.set(b, this.off + 4);
    this.off += 4 + b.byteLength;
  }

  /** Several chunks as one length-prefixed byte string (a response body as undici delivered it). */
  chunks(list: readonly Uint8Array[]): void {
    let total = 0;
    for (const c of list) total += c.byteLength;
    if (!this.room(4 + total)) return;
    this.dv.setUint32(this.off, total);
    let at = this.off + 4;
    for (const c of list) {
      this.buf.set(c, at);
      at += c.byteLength;
    }
    this.off = at;
  }
}

export class Reader {
  private readonly dv: DataView;
  private readonly buf: RawBuffer;
  off: number;

  constructor(
    sab: SharedArrayBuffer,
    readonly start: number,
  ) {
    this.dv = new DataView(sab);
    this.buf = Buffer.from(sab) as RawBuffer;
    this.off = start;
  }

  reset(): this {
    this.off = this.start;
    return this;
  }

  u8(): number {
    const v = this.dv.getUint8(this.off);
    this.off += 1;
    return v;
  }
  u16(): number {
    const v = this.dv.getUint16(this.off);
    this.off += 2;
    return v;
  }
  u32(): number {
    const v = this.dv.getUint32(this.off);
    this.off += 4;
    return v;
  }
  f64(): number {
    const v = this.dv.getFloat64(this.off);
    this.off += 8;
    return v;
  }

  str(): string {
    const n = this.u32();
    const s = n === 0 ? '' : this.buf.utf8Slice(this.off, this.off + n);
    this.off += n;
    return s;
  }

  /** A copy of a length-prefixed byte string (the region is reused by the next exchange). */
  bytes(): Buffer {
    const n = this.u32();
    const b = Buffer.allocUnsafe(n);
    this.buf.copy(b, 0, this.off, this.off + n);
    this.off += n;
    return b;
  }
}
