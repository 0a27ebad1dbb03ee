/**
 * A fast, dependency-free 64-bit FNV-1a hash (two 32-bit lanes), for change detection and file
 * names on the hot path, where loading `node:crypto` is not worth it. Not for anything an
 * adversary must not collide: lanes uses it to notice that a file changed (a collision could only
 * keep an older, stricter compiled policy in force) and to name lock claims.
 */
export function fnv1a64(data: Uint8Array | string): string {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ bytes.length;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    h1 = Math.imul(h1 ^ b, 0x01000193);
    h2 = Math.imul(h2 ^ b ^ (h1 >>> 16), 0x01000193);
  }
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}
