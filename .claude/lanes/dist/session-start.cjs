"use strict";
// lanes: session-start hook loader (src/hooks/lazy/hook-loader.ts, built by scripts/build/bundles.ts); the hook itself is session-start.impl.cjs
const LANES_LOADER = {"name":"session-start","ids":{"session-start":"6993a1e29291b7d2","shell":"89a51fe4de522d67","globs":"628d78c8c7778802","yaml":"b52e4e704bed6523","formats":"0aa19254a0b64d33","code":"a851d33ef61cd4d7","python":"5986a3694d392920","javascript":"f261887a18416073"},"maxProfiles":24};
// src/hooks/lazy/hook-loader.ts
var import_node_buffer = require("node:buffer");
var import_node_fs = require("node:fs");
var import_node_path = require("node:path");
var import_node_vm = require("node:vm");
var slices = (bytes) => bytes;
function cacheDir(env, distDir) {
  const data = env["CLAUDE_PLUGIN_DATA"];
  if (data) return (0, import_node_path.join)(data, "cache");
  return (0, import_node_path.basename)((0, import_node_path.dirname)(distDir)) === "lanes" ? (0, import_node_path.join)(distDir, "..", "state", "cache") : void 0;
}
function encodeCache(seen, data) {
  const header = Buffer.from(JSON.stringify(seen), "latin1");
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length, 0);
  return Buffer.concat([size, header, data]);
}
function decodeCache(bytes) {
  const size = bytes.readUInt32LE(0);
  const seen = JSON.parse(slices(bytes).latin1Slice(4, 4 + size));
  if (!Array.isArray(seen) || !seen.every((s) => typeof s === "string")) throw new Error("not a cache header");
  return { seen, data: bytes.subarray(4 + size) };
}
var STATE_READ = import_node_fs.constants.O_RDONLY | (import_node_fs.constants.O_NOFOLLOW ?? 0) | (import_node_fs.constants.O_NONBLOCK ?? 0);
var ownDir = (dir, missing = true) => {
  try {
    return (0, import_node_fs.lstatSync)(dir).isDirectory();
  } catch {
    return missing;
  }
};
function createLoader(config, distDir, env, moduleRequire) {
  const dir = cacheDir(env, distDir);
  const loaded = {};
  const caches = [];
  let scratch;
  const read = (file, flags = import_node_fs.constants.O_RDONLY) => {
    const fd = (0, import_node_fs.openSync)(file, flags);
    try {
      const stat = (0, import_node_fs.fstatSync)(fd);
      if (!stat.isFile()) throw new Error(`${file} is not a regular file`);
      const size = stat.size;
      if (scratch === void 0 || scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, 1 << 19));
      let n = 0;
      for (let r; n < size && (r = (0, import_node_fs.readSync)(fd, scratch, n, size - n, n)) > 0; ) n += r;
      return scratch.subarray(0, n);
    } finally {
      (0, import_node_fs.closeSync)(fd);
    }
  };
  const load = (bundle) => {
    const done = loaded[bundle];
    if (done !== void 0) return done.exports;
    const impl = (0, import_node_path.join)(distDir, `${bundle}.impl.cjs`);
    const text = read(impl);
    const source = (0, import_node_buffer.isAscii)(text) ? slices(text).latin1Slice() : slices(text).utf8Slice();
    const file = dir === void 0 ? void 0 : (0, import_node_path.join)(dir, `${bundle}-${config.ids[bundle]}-${process.version}-${process.arch}.v8`);
    let cached;
    let seen = [];
    if (file !== void 0)
      try {
        ({ seen, data: cached } = decodeCache(read(file, STATE_READ)));
      } catch {
        cached = void 0;
        seen = [];
      }
    const script = new import_node_vm.Script(source, { filename: impl, ...cached !== void 0 && { cachedData: cached } });
    const mod = loaded[bundle] = { exports: {} };
    if (file !== void 0)
      caches.push({ file, script, seen: cached === void 0 || script.cachedDataRejected === true ? [] : seen });
    const wrapper = script.runInThisContext();
    wrapper(mod.exports, moduleRequire, mod, impl, distDir);
    return mod.exports;
  };
  const finish = (profile) => {
    if (dir === void 0) return;
    for (const c of caches) {
      if (c.seen.includes(profile) || c.seen.length >= config.maxProfiles) continue;
      try {
        if (!ownDir((0, import_node_path.dirname)(dir)) || !ownDir(dir)) return;
        (0, import_node_fs.mkdirSync)(dir, { recursive: true, mode: 448 });
        if (!ownDir((0, import_node_path.dirname)(dir), false) || !ownDir(dir, false)) return;
        const tmp = `${c.file}.${process.pid}.tmp`;
        (0, import_node_fs.writeFileSync)(tmp, encodeCache([...c.seen, profile], c.script.createCachedData()), { mode: 384, flag: "wx" });
        (0, import_node_fs.renameSync)(tmp, c.file);
      } catch {
      }
    }
  };
  return { load, finish };
}
function runLoader() {
  const { load, finish } = createLoader(LANES_LOADER, __dirname, process.env, require);
  const global = globalThis;
  process.once("exit", () => finish(typeof global.__lanesProfile === "string" ? global.__lanesProfile : "other"));
  global.__lanesLoad = load;
  load(LANES_LOADER.name);
}

// src/hooks/lazy/hook-loader-main.ts
runLoader();
