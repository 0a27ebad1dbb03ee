/**
 * The warm path, for the record (issue 28): would Claude Code's Bash sandbox make a resident hook
 * server safe? An HTTP hook is answered by whatever listens on its port, so the server is only as
 * safe as the agent's inability to kill it and to listen on its port after it. This probes both
 * against the real client with the sandbox on (`allowUnsandboxedCommands: false`), with a stand-in
 * server on the host's loopback: the sandboxed calls try to see and kill it, to reach it, to listen
 * on a port the host can reach, and, once the server is gone (killed from the host), to take its port.
 * lanes ships no such server; this pins what 2.1.330's sandbox does, for the design note in the README.
 *
 * Linux only, and only where bubblewrap and socat are installed (`.ci/run` installs them).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { explain, startScenario, text, toolUse, type Scenario, type ToolUseBlock } from "./harness/index.ts";

const onPath = (program: string): boolean =>
  spawnSync("sh", ["-c", 'command -v "$1" >/dev/null', "sh", program]).status === 0;
const SANDBOX_MISSING =
  process.platform !== "linux"
    ? `the warm-path probe runs on Linux only (this is ${process.platform})`
    : ["bwrap", "socat", "python3"].filter((p) => !onPath(p)).map((p) => `\`${p}\` is not installed`)[0];

/** A stand-in for a resident hook server: answers every request with a marker the probes look for. */
const SERVER = `
const http = require("node:http");
const server = http.createServer((req, res) => res.end(JSON.stringify({ from: "lanes-warm-server" })));
server.listen(Number(process.argv[1]), "127.0.0.1", () => process.stdout.write("listening\\n"));
`;

/** Python that listens on a port in the background and answers `impostor`, then asks it from inside. */
const impostor = (port: number): string =>
  `nohup python3 -c 'import http.server as h
class A(h.BaseHTTPRequestHandler):
    def do_GET(s): s.send_response(200); s.end_headers(); s.wfile.write(b"impostor")
    do_POST = do_GET
h.HTTPServer(("127.0.0.1", ${port}), A).serve_forever()' >/dev/null 2>&1 &
python3 -c 'import socket, time
for i in range(100):
    try: s = socket.create_connection(("127.0.0.1", ${port}), 2); break
    except OSError: time.sleep(0.1)
s.sendall(b"GET / HTTP/1.0\\r\\n\\r\\n"); b = b"".join(iter(lambda: s.recv(200), b"")); print("inside", b.split(b"\\r\\n\\r\\n")[-1].decode())' 2>&1 | tail -1`;

/** What the host gets from 127.0.0.1:port (the answer's body, or the error). */
function hostFetch(port: number): string {
  const r = spawnSync(
    process.execPath,
    [
      "-e",
      `require("node:http").get({ host: "127.0.0.1", port: ${port}, timeout: 2000 }, (res) => { let b = ""; res.on("data", (d) => (b += d)); res.on("end", () => console.log(b)); }).on("error", (e) => console.log(e.code));`,
    ],
    { encoding: "utf8", timeout: 10_000 },
  );
  return r.stdout.trim();
}

/** A loopback port nothing listens on now. */
function freePort(): number {
  const r = spawnSync(
    process.execPath,
    [
      "-e",
      `const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });`,
    ],
    { encoding: "utf8" },
  );
  return Number(r.stdout.trim());
}

const bash = (id: string, command: string, unsandboxed = false): ToolUseBlock =>
  toolUse(
    "Bash",
    { command, description: id, ...(unsandboxed && { dangerouslyDisableSandbox: true }) },
    `toolu_warm_${id}`,
  );

let s: Scenario | undefined;
let server: ChildProcess | undefined;
afterEach(async () => {
  server?.kill("SIGKILL");
  server = undefined;
  await s?.dispose();
  s = undefined;
});

/** Whether pid runs (a zombie, killed but not yet reaped by this process, does not). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

describe.skipIf(SANDBOX_MISSING !== undefined)(
  "the warm path: a resident hook server against the sandboxed agent",
  () => {
    it("probes what a sandboxed Bash call can do to a server on the host's loopback", async () => {
      const port = freePort();
      const other = freePort();
      server = spawn(process.execPath, ["-e", SERVER, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((resolve, reject) => {
        server!.stdout!.once("data", () => resolve());
        server!.once("exit", (code) => reject(new Error(`the stand-in server exited (${code})`)));
      });
      const pid = server.pid!;
      const host: Record<string, string | boolean> = {};
      s = await startScenario({
        homeFiles: {
          ".claude/settings.json": JSON.stringify({ sandbox: { enabled: true, allowUnsandboxedCommands: false } }),
        },
        script: ({ turn }) => {
          if (turn === 0)
            return [
              bash(
                "procs",
                `echo pids=$(ls /proc | grep -c '^[0-9][0-9]*$'); echo init=$(cat /proc/1/comm); kill -0 ${pid}; echo kill0=$?; kill -9 ${pid}; echo kill=$?; pkill -9 -f 'lanes-warm-[s]erver'; echo pkill=$?`,
              ),
              bash(
                "reach",
                `python3 -c 'import socket; s = socket.create_connection(("127.0.0.1", ${port}), 2); s.sendall(b"GET / HTTP/1.0\\r\\n\\r\\n"); b = b"".join(iter(lambda: s.recv(200), b"")); print("reach", b.split(b"\\r\\n\\r\\n")[-1].decode())' 2>&1 | tail -1; echo tcp=$(wc -l < /proc/net/tcp)`,
              ),
              bash(
                "proxy",
                `for h in 127.0.0.1 localhost; do curl -s -m 5 -w " http=%{http_code}" --noproxy '' --proxy "$HTTP_PROXY" http://$h:${port}/ 2>&1; echo " rc=$?"; done`,
              ),
              bash("listen", impostor(other)),
              bash("unsandboxed", `kill -9 ${pid}; echo kill=$?`, true),
            ];
          if (turn === 1) {
            host.aliveAfterProbes = alive(pid);
            host.otherFromHost = hostFetch(other);
            // the server goes away by another route (a crash, the person's kill): can the agent take its port?
            server?.kill("SIGKILL");
            for (let i = 0; i < 50 && alive(pid); i++) spawnSync("sleep", ["0.1"]);
            host.serverGone = !alive(pid);
            return [bash("takeover", impostor(port))];
          }
          if (turn === 2) {
            host.portFromHost = hostFetch(port);
            return [text("done")];
          }
          return [text("done")];
        },
      });
      const run = await s.run("probe", { args: ["--allowedTools", "Bash"], timeoutMs: 120_000 });
      const out = (id: string): string => s!.api.toolResult(`toolu_warm_${id}`)?.text ?? "";
      const why = `${explain(run, s.api)}\n${JSON.stringify(host)}\n${["procs", "reach", "proxy", "listen", "unsandboxed", "takeover"].map((id) => `${id}: ${out(id)}`).join("\n")}`;
      expect(run.exitCode, why).toBe(0);
      // its own PID namespace (bwrap is its init): the host's server cannot be seen, signalled or matched
      expect(out("procs"), why).toMatch(/init=bwrap/);
      expect(out("procs"), why).toMatch(/kill0=1\b/);
      expect(out("procs"), why).toMatch(/kill=1\b/);
      expect(out("procs"), why).toMatch(/pkill=1\b/);
      // and not by asking to run outside the sandbox either, when unsandboxed commands are not allowed
      expect(out("unsandboxed"), why).toMatch(/kill=1\b/);
      expect(host.aliveAfterProbes, why).toBe(true);
      // its own network namespace: the host's loopback is not the sandbox's
      expect(out("reach"), why).toMatch(/Connection refused/);
      expect(out("reach"), why).not.toMatch(/lanes-warm-server/);
      expect(out("reach"), why).toMatch(/tcp=1\b/);
      // nor through Claude Code's proxy (which runs on the host) while the loopback is not an allowed domain
      expect(out("proxy").match(/^Connection blocked by network allowlist\n http=403 rc=0$/gm)?.length, why).toBe(2);
      expect(out("proxy"), why).not.toMatch(/lanes-warm-server/);
      // what it listens on answers inside only: the host (where Claude Code sends an HTTP hook) sees nothing
      expect(out("listen"), why).toMatch(/inside impostor/);
      expect(host.otherFromHost, why).toBe("ECONNREFUSED");
      // once the server is gone, the port number is free inside, but an impostor there is not the host's port
      expect(host.serverGone, why).toBe(true);
      expect(out("takeover"), why).toMatch(/inside impostor/);
      expect(host.portFromHost, why).toBe("ECONNREFUSED");
    });
  },
);
