import { describe, expect, it } from "vitest";
import { corpusCommands } from "../helpers/corpus.ts";
import { redactEntry } from "../../src/hooks/state/audit.ts";
import { REDACTIONS, redactSecrets } from "../../src/shell/redact.ts";

describe("redactSecrets", () => {
  it("keeps paths, whatever random name a directory on them has, and cuts a token that is a part of one", () => {
    // one in nine of these names made the whole path a secret by its entropy
    for (const dir of ["f9JP0R", "ZnU9I3", "8Z2Qc5", "XD2T8H", "YB02fh", "a1B2c3", "Qw3Er5"]) {
      const text = `lanes policy does not compile: /tmp/lanes-hooks-${dir}/project/.claude/lanes.yaml:39: rules[1].id`;
      expect(redactSecrets(text)).toBe(text);
      expect(redactSecrets(`cat ../lanes-hooks-${dir}/project/src/Header2Button/index.tsx`)).toContain(dir);
    }
    const token = "Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A";
    expect(redactSecrets(`curl https://x/api/tokens/k8sVt2QpL9wXz4RbN7yHm3JcF6dGa1Ue`)).toBe(
      "curl https://x/api/tokens/[REDACTED]",
    );
    expect(redactSecrets(`echo ${token}`)).toBe(`echo ${token}`);
  });

  it.each([
    [
      "env assignment before a command",
      "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG aws s3 ls",
      "AWS_SECRET_ACCESS_KEY=[REDACTED] aws s3 ls",
    ],
    [
      "export with a quoted value",
      "export GITHUB_TOKEN='abc def' && gh pr list",
      "export GITHUB_TOKEN=[REDACTED] && gh pr list",
    ],
    ["a secret among ordinary assignments", 'A=1 DB_PASSWORD="two words" make', "A=1 DB_PASSWORD=[REDACTED] make"],
    ["a camelCase secret name", "node app.js --x apiKey=abc123", "node app.js --x apiKey=[REDACTED]"],
    [
      "declare -x of a token",
      "declare -x NPM_TOKEN=abc123; npm publish",
      "declare -x NPM_TOKEN=[REDACTED]; npm publish",
    ],
    [
      "a token in a query string",
      "curl 'https://x/api?token=abc123&page=2'",
      "curl 'https://x/api?token=[REDACTED]&page=2'",
    ],
    [
      "a password in a JSON body",
      `curl -d '{"user":"bob","password":"hunter2"}' https://x`,
      `curl -d '{"user":"bob","password":"[REDACTED]"}' https://x`,
    ],
    [
      "a secret in an escaped JSON body",
      'curl -d "{\\"client_secret\\": \\"s3cr3t\\"}" https://x',
      'curl -d "{\\"client_secret\\": \\"[REDACTED]\\"}" https://x',
    ],
    [
      "a random key with no known prefix",
      "deploy --header X-Key:hG7kP2mX9qL4vN8rT1wY5zB3cF6jD0sA",
      "deploy --header X-Key:[REDACTED]",
    ],
    ["a header secret by name", 'curl -H "X-Api-Key: abc123" https://x', 'curl -H "X-Api-Key: [REDACTED]" https://x'],
    ["a MySQL password attached to -p", "mysql -u root -phunter2 app", "mysql -u root -p[REDACTED] app"],
    ["a mysqldump password", "mysqldump -pS3cret db > d.sql", "mysqldump -p[REDACTED] db > d.sql"],
    ["an sshpass password", "sshpass -p hunter2 ssh deploy@host", "sshpass -p [REDACTED] ssh deploy@host"],
    ["a redis-cli password", "redis-cli -h cache -a s3cret ping", "redis-cli -h cache -a [REDACTED] ping"],
    ["a secret stored by gh", "gh secret set API_TOKEN --body abc123", "gh secret set API_TOKEN --body [REDACTED]"],
    ["a quoted secret stored by gh", "gh secret set X -b 'abc 123'", "gh secret set X -b [REDACTED]"],
    ["a key shape inside a quoted assignment", 'x="sk-proj-abcdefghijklmnop1234"', 'x="[REDACTED]"'],
    [
      "base64 padding is not an assignment (the logged command must still reproduce the decision)",
      'bash -c "$(echo Z2l0IHJlc2V0IC0taGFyZA== | base64 -d)"',
      'bash -c "$(echo Z2l0IHJlc2V0IC0taGFyZA== | base64 -d)"',
    ],
    [
      "Authorization header",
      'curl -H "Authorization: Bearer abc.def.ghi" https://api.example.com',
      'curl -H "Authorization: Bearer [REDACTED]" https://api.example.com',
    ],
    [
      "basic auth header",
      "curl -H 'authorization: Basic dXNlcjpwYXNz' x",
      "curl -H 'authorization: Basic [REDACTED]' x",
    ],
    ["bearer alone", "http GET x 'Bearer eyJhbGciOiJIUzI1NiJ9xyz'", "http GET x 'Bearer [REDACTED]'"],
    ["password flag", "mysql --password=hunter2 -h db", "mysql --password=[REDACTED] -h db"],
    ["token flag with a space", "vault login --token s.abcdef123456", "vault login --token [REDACTED]"],
    ["curl -u", "curl -u admin:hunter2 https://x", "curl -u [REDACTED] https://x"],
    [
      "credentials in a URL",
      "git clone https://bob:ghs_abc@github.com/acme/x.git",
      "git clone https://[REDACTED]@github.com/acme/x.git",
    ],
    ["an OpenAI-shaped key", "echo sk-proj-abcdefghijklmnop1234 | pbcopy", "echo [REDACTED] | pbcopy"],
    ["an Anthropic-shaped key", "claude --key sk-ant-api03-abcdefghijklmnopqrstu", "claude --key [REDACTED]"],
    [
      "a GitHub token",
      "gh auth login --with-token ghp_0123456789abcdefghijABCDEFGHIJ",
      "gh auth login --with-token [REDACTED]",
    ],
    [
      "an AWS access key id",
      "aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE",
      "aws configure set aws_access_key_id [REDACTED]",
    ],
    ["a Slack token", "post xoxb-123456789012-abcdef", "post [REDACTED]"],
    ["a JWT", "echo eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "echo [REDACTED]"],
    [
      "a private key",
      "printf '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----' > k",
      "printf '[REDACTED PRIVATE KEY]' > k",
    ],
  ])("%s", (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it.each([
    // ordinary shell text: the logged command must still reproduce the decision
    ['x="a b"; echo "$x"'],
    ["FOO=bar make"],
    ['A=1 B="two words" make'],
    ['let s=""'],
    ['out="$(git rev-parse HEAD)"; echo $out'],
    ["for i in $(seq 1 3); do n=$((i*2)); echo $n; done"],
    ["NODE_ENV=production npm run build"],
    // secret names whose value is a variable or substitution: no secret in the text
    ['GITHUB_TOKEN="$(gh auth token)" gh api user'],
    ["TOKEN=$T curl x"],
    ["curl --token $API_TOKEN x"],
    // near misses of secret names: a part that only looks like one
    ["MONKEY=1 AUTHOR=bob BYPASS=1 PASSES=3 TOKENIZER=bpe KEYBOARD=us make"],
    ["git commit --author 'Bob <b@x>' -m x"],
    ["npm test -- --passWithNoTests"],
    ['jq \'.items[] | {name: .name, "keyword": "x"}\' f.json'],
    // near misses of key shapes
    ["git show 3f2a9c0d1e4b5a6978877665544332211aabbccd"],
    ["docker rm 0b6c2a3e-9f1d-4c5b-8a7e-2d3c4b5a6978"],
    ["cat src/components/UserProfileCardWithAvatar2Component.tsx"],
    // short options that are no password outside the clients that take one so
    ["mysql -u root -p app"],
    ['mysql -p"$DB_PASS" app'],
    ["mysql -h db -P 3306 -e 'select 1' && mkdir -p out"],
    ["docker run -p8080:80 img && ssh -p22 host"],
    ["sshpass -f ~/.pw ssh host"],
    ["gh secret set API_TOKEN < token.txt"],
    ['bash -c "$(echo Z2l0IHJlc2V0IC0taGFyZCAmJiBybSAtcmYgfi93b3Jr | base64 -d)"'],
    ["echo sk-short | wc"],
    ["git push -u origin HEAD:main"],
    ['curl -H "Accept: application/json" -H "X-Request-Id: 42" https://x'],
    ["git status"],
    ["rm -rf ~"],
    ["npm run build -- --watch"],
    ["git log --format=%H"],
    ["src/server/orders.ts"],
    ["lanes denied `rm -rf ~` [fs.delete-home]: it deletes your home directory"],
  ])("leaves %j alone", (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it("redacts the subject and reason of an audit entry, nothing else", () => {
    const entry = {
      ts: "t",
      event: "decision",
      tool: "Bash",
      subject: "TOKEN=abc curl x",
      reason: "lanes asked about `TOKEN=abc curl x`",
      rules: ["r"],
    } as const;
    expect(redactEntry(entry)).toEqual({
      ...entry,
      subject: "TOKEN=[REDACTED] curl x",
      reason: "lanes asked about `TOKEN=[REDACTED] curl x`",
    });
  });
});

describe("redaction hints", () => {
  // every command of the decision corpus, and each with a secret of every shape worked into it
  const commands = corpusCommands();
  const secrets = [
    "TOKEN=abc123",
    "-H 'Authorization: Bearer abcdefghijkl'",
    "--api-key sekrit",
    "-u bob:pw",
    "https://bob:pw@example.com/x",
    "ghp_abcdefghijklmnopqrstuvwxyz0123",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
    "--PASSWORD=Hunter2",
    "BEARER abcdefghijkl",
    "&& mysql -phunter2 db",
    "; sshpass -p pw ssh h",
    "&& gh secret set X --body v",
  ];
  const everyPattern = (text: string): string =>
    REDACTIONS.reduce((out, r) => out.replace(r.pattern, r.replacement as never), text);

  it("never skip a pattern that would have matched", () => {
    expect(commands.length).toBeGreaterThan(2000);
    for (const command of commands) {
      expect(redactSecrets(command), command).toBe(everyPattern(command));
      for (const secret of secrets) {
        const text = `${command} ${secret}`;
        expect(redactSecrets(text), text).toBe(everyPattern(text));
      }
    }
  });

  it("skip every pattern for a command with no secret-like literal", () => {
    for (const text of ["git status", "npm test", "ls -la src", "rm -rf dist"])
      expect(REDACTIONS.filter((r) => r.hint(text, () => text.toLowerCase())).map((r) => String(r.pattern))).toEqual(
        [],
      );
  });
});
