/** Path rules: secrets nobody reads, git internals nobody edits by hand, and lanes' own config. */
import type { RuleSpec } from "./types.ts";

export const pathRules: readonly RuleSpec[] = [
  {
    id: "secrets.env-files",
    effect: "deny",
    paths: {
      access: "zero-access",
      patterns: [".env", ".env.*", ".envrc"],
      except: [".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", ".env.schema", ".env.*.example", ".env.*.sample", ".env.*.template"],
    },
    why: "environment files hold secrets",
    instead: "read `.env.example` for the variable names, or ask the user for the value you need",
  },
  {
    id: "secrets.private-keys",
    effect: "deny",
    paths: {
      access: "zero-access",
      patterns: ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.ppk"],
      except: ["*.pub"],
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
      except: ["~/.ssh/*.pub", "~/.ssh/known_hosts", "~/.ssh/config"],
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
    paths: { access: "read-only", patterns: [".git"] },
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
];
