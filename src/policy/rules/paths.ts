/** Path rules: secrets nobody reads, git internals nobody edits by hand, and lanes' own config. */
import type { RuleSpec } from "./types.ts";

export const pathRules: readonly RuleSpec[] = [
  {
    id: "secrets.env-files",
    effect: "deny",
    // write-only: creating or appending to one (`cp .env.example .env`) discloses nothing
    paths: {
      access: "write-only",
      patterns: [".env", ".env.*", ".envrc"],
      except: [".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", ".env.schema", ".env.*.example", ".env.*.sample", ".env.*.template"],
    },
    why: "environment files hold secrets",
    instead: "read `.env.example` for the variable names, or ask the user for the value you need",
  },
  {
    id: "secrets.private-keys",
    effect: "deny",
    // write-only: generating one (`openssl req -keyout k.pem`) discloses nothing, and neither does
    // a program that uses it without showing it (`curl --key`, `ssh-add`: access `use`)
    paths: {
      access: "write-only",
      patterns: ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.ppk", "*.p8", "*.der.key", "*.gpg", "*.asc.key"],
      // Public material, by the names the tools give it: certificates and chains (`cert.pem`,
      // `server-cert.pem`, `fullchain.pem`, `ca.pem`, `ca-bundle.pem`), Diffie-Hellman
      // parameters, public keys. A `.pem` whose name does not say which it is stays a secret
      // (an EC2 key pair downloads as `<name>.pem`), and so does every `.key`.
      except: [
        "*.pub",
        "*.pub.pem",
        "*.pub.key",
        "*public*.key",
        "*public*.pem",
        "*pubkey*.pem",
        "*cert.pem",
        "*cert[0-9].pem",
        "*crt.pem",
        "*.crt.pem",
        "*certificate.pem",
        "*certificates.pem",
        "*chain.pem",
        "*chain[0-9].pem",
        "*bundle.pem",
        "ca.pem",
        "*-ca.pem",
        "*_ca.pem",
        "*.ca.pem",
        "*root-ca*.pem",
        "*cacert*.pem",
        "dhparam*.pem",
        "*dhparams.pem",
        "*-csr.pem",
        "*.csr.pem",
      ],
    },
    why: "private keys and certificate stores are secrets",
    instead: "use the public key (`*.pub`) or ask the user to configure the key",
  },
  {
    id: "secrets.credential-files",
    effect: "deny",
    paths: {
      access: "zero-access",
      patterns: [
        "~/.ssh/",
        "~/.aws/credentials",
        "~/.config/gcloud/",
        "~/.azure/",
        "~/.kube/config",
        "~/.docker/config.json",
        "~/.netrc",
        "~/.git-credentials",
        "~/.npmrc",
        "~/.pypirc",
        "~/.gnupg/",
        "~/.config/gh/hosts.yml",
        "credentials.json",
        "service-account*.json",
      ],
      except: ["~/.ssh/*.pub", "~/.ssh/known_hosts", "~/.ssh/known_hosts.old", "~/.ssh/config"],
    },
    why: "credential files hold tokens and keys",
    instead: "ask the user to run the authenticated command, or to provide a scoped token",
  },
  {
    id: "secrets.terraform-state",
    effect: "ask",
    paths: { access: "zero-access", patterns: ["*.tfstate", "*.tfstate.backup"] },
    why: "Terraform state holds resource secrets in plain text",
    instead: "use `terraform output` or `terraform state list` for what you need",
  },
  {
    id: "git.internals",
    effect: "deny",
    // The project's own repository only: a vendored `.git` deeper down is not this repository,
    // and a stale `*.lock` file left by a crashed git is removed by hand on git's own advice.
    // Hooks and `info/exclude` are the user's own files in the git directory, not its database:
    // git documents installing a hook and adding local ignores by hand.
    paths: {
      access: "read-only",
      patterns: [".git"],
      except: ["*/**/.git", "*/**/.git/**", ".git/*.lock", ".git/**/*.lock", ".git/hooks", ".git/hooks/**", ".git/info/exclude"],
    },
    why: "files under `.git` are git's own database; editing or deleting them corrupts the repository",
    instead: "use git commands (`git config`, `git update-ref`, ...) to change the repository",
  },
  {
    id: "lanes.config",
    effect: "ask",
    subagentEffect: "deny",
    fileEffect: { access: ["write", "delete", "chmod", "chown"], targets: ["claude-config"] },
    why: "it changes Claude Code settings or lanes' policy, hooks or state, which decide what agents may do",
    instead: "use the `lanes` commands for state (progress, memory, checkpoints), and tell the user which setting or policy change you want",
  },
  {
    // the human override (src/hooks/override.ts): only the hooks write offers and grants, from the human's prompt
    id: "lanes.override",
    effect: "deny",
    paths: {
      access: "zero-access",
      patterns: [".claude/state/overrides.json", ".claude/state/overrides.json.*", ".claude/state/.overrides.json.*"],
    },
    why: "it holds the human's one-time overrides of denied calls, which only the human grants",
    instead: "ask the user to type the `lanes allow` code lanes showed them, if they want the denied call to run once",
  },
  {
    // a prompt of a Claude Code client that a tool started, in this very session, is not the human's
    id: "lanes.override-session",
    effect: "deny",
    command: { program: ["claude"], flags_any: ["--resume", "-r", "--continue", "-c", "--session-id", "--fork-session"] },
    why: "it continues a Claude Code session from a tool, where its prompts would pass for the user's",
    instead: "start a fresh `claude -p` session, or ask the user to continue this one",
  },
];
