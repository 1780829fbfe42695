import { describe, expect, it } from 'vitest';
import { decodeBase64, decodeBase64Url, encodeBase64, encodeBase64Url } from '../src/shared/base64.js';

const text = (value: string) => new TextEncoder().encode(value);

describe('base64', () => {
  it('round-trips every byte value, also through 1 MiB, as Node encodes them', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(encodeBase64(all)).toBe(Buffer.from(all).toString('base64'));
    expect(decodeBase64(encodeBase64(all))).toEqual(all);
    const big = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 7919) & 0xff);
    const encoded = encodeBase64(big);
    expect(encoded).toBe(Buffer.from(big).toString('base64'));
    expect(Buffer.from(decodeBase64(encoded)!).equals(Buffer.from(big))).toBe(true);
  });

  it('tolerates line breaks and missing padding', () => {
    expect(decodeBase64('aGVs\r\nbG8=\n')).toEqual(text('hello'));
    expect(decodeBase64('aGVsbG8')).toEqual(text('hello'));
  });

  it.each(['aGVs*G8=', 'aGVsbG8=a', 'a', 'aGV-bG8_', 'data:image/png;base64,aGVsbG8='])('refuses %j', (value) => {
    expect(decodeBase64(value)).toBeUndefined();
  });
});

describe('base64url', () => {
  it('encodes without padding in the URL alphabet, as Node does', () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 0x3e, 0x3f]);
    expect(encodeBase64Url(bytes)).toBe('-_-_Pj8');
    expect(encodeBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
  });

  it('decodes with or without padding, standard base64 too, and refuses anything else', () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 0x3e, 0x3f]);
    expect(decodeBase64Url('-_-_Pj8')).toEqual(bytes);
    expect(decodeBase64Url('-_-_Pj8=')).toEqual(bytes);
    expect(decodeBase64Url('+/+/Pj8=')).toEqual(bytes);
    expect(decodeBase64Url('-_-_P*8')).toBeUndefined();
  });
});
