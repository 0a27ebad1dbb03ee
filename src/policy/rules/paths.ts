/** Path rules: secrets nobody reads, git internals nobody edits by hand, and lanes' own config. */
import type { RuleSpec } from "./types.ts";

/** Environment files, and the templates among them that hold no secret. */
const ENV_FILES = [".env", ".env.*", ".envrc"];
const ENV_TEMPLATES = [".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", ".env.schema", ".env.*.example", ".env.*.sample", ".env.*.template", ".env.tpl", ".env.*.tpl"];

/** Directories of keys and credentials, whose listing says which accounts and keys exist. */
const CREDENTIAL_DIRS = ["~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gcloud", "~/.azure", "~/.kube", "~/.docker", "~/.password-store", "~/.oci", "~/.config/gh", "~/.config/op", "~/.local/share/keyrings", "//root/.ssh", "//root/.aws", "//root/.gnupg", "//var/run/secrets", "//run/secrets"];

export const pathRules: readonly RuleSpec[] = [
  {
    id: "secrets.env-files",
    effect: "deny",
    // write-only: creating or appending to one (`cp .env.example .env`) discloses nothing
    paths: { access: "write-only", patterns: ENV_FILES, except: ENV_TEMPLATES },
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
      patterns: ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "ssh_host_*_key", "*_rsa", "*_ed25519", "*_ecdsa", "*_dsa", "deploy_key", "*_deploy_key", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.ppk", "*.p8", "*.der.key", "*.gpg", "*.asc.key"],
      // Public material, by the names the tools give it: certificates and chains (`cert.pem`,
      // `server-cert.pem`, `fullchain.pem`, `ca.pem`, `ca-bundle.pem`), Diffie-Hellman
      // parameters, public keys. A `.pem` whose name does not say which it is stays a secret
      // (an EC2 key pair downloads as `<name>.pem`), and so does every `.key`.
      except: [
        "*.pub",
        "*.pub.pem",
        "*.pub.key",
        "*public*.key",
        // directories that happen to end like a key name (`src/foreign_rsa/`) are not keys
        "**/*_rsa/**/*",
        "**/*_ed25519/**/*",
        "**/*_ecdsa/**/*",
        "**/*_dsa/**/*",
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
        "rootCA.pem",
        "*CA.pem",
        "dhparam*.pem",
        "*dhparams.pem",
        "*-csr.pem",
        "*.csr.pem",
        // the system trust stores hold public CA certificates, whatever their names (`ISRG_Root_X1.pem`);
        // private keys live apart (`/etc/ssl/private`, `/etc/pki/tls/private`)
        "//etc/ssl/certs/**",
        "//etc/ca-certificates/**",
        "//usr/share/ca-certificates/**",
        "//usr/local/share/ca-certificates/**",
        "//etc/pki/ca-trust/**",
        "//etc/pki/tls/certs/**",
        "//usr/lib/ssl/certs/**",
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
        "~/.config/glab-cli/config.yml",
        "~/.config/hub",
        "~/.cargo/credentials",
        "~/.cargo/credentials.toml",
        "~/.gem/credentials",
        "~/.local/share/gem/credentials",
        "~/.terraform.d/credentials.tfrc.json",
        "~/.terraformrc",
        "~/.vault-token",
        "~/.pgpass",
        "~/.my.cnf",
        "~/.s3cfg",
        "~/.boto",
        "~/.config/rclone/rclone.conf",
        "~/.databrickscfg",
        "~/.oci/",
        "~/.config/doctl/config.yaml",
        "~/.composer/auth.json",
        "~/.config/composer/auth.json",
        "~/.m2/settings-security.xml",
        "~/.gradle/gradle.properties",
        "~/.config/hcloud/cli.toml",
        "~/.fly/config.yml",
        "~/.netlify/config.json",
        "~/.config/netlify/config.json",
        "~/.wrangler/config/",
        "~/.heroku/credentials",
        "~/.ngrok2/ngrok.yml",
        "~/.config/ngrok/ngrok.yml",
        "~/.docker/.token_seed",
        "//root/.ssh/",
        "//root/.aws/credentials",
        "//var/run/secrets/",
        "//run/secrets/",
        "credentials.json",
        "service-account*.json",
      ],
      // public material and settings: public keys and certificates, known hosts, the GnuPG public keyring, trust database and configuration
      except: [
        "~/.ssh/*.pub", "~/.ssh/**/*.pub", "~/.ssh/known_hosts", "~/.ssh/known_hosts.old", "~/.ssh/config", "~/.ssh/*.crt", "~/.ssh/*-cert.pem",
        "~/.gnupg/pubring.kbx", "~/.gnupg/pubring.kbx~", "~/.gnupg/pubring.gpg", "~/.gnupg/trustdb.gpg", "~/.gnupg/gpg.conf", "~/.gnupg/gpg-agent.conf",
        "~/.gnupg/dirmngr.conf", "~/.gnupg/scdaemon.conf", "~/.gnupg/common.conf", "~/.gnupg/sshcontrol",
      ],
    },
    why: "credential files hold tokens and keys",
    instead: "ask the user to run the authenticated command, or to provide a scoped token",
  },
  {
    id: "secrets.list-credential-dirs",
    effect: "ask",
    // (what the files hold is secrets.credential-files'; `ls ~/.config` and `ls ~/.ssh/*.pub` list other things)
    paths: { access: "no-list", patterns: [...CREDENTIAL_DIRS, ...CREDENTIAL_DIRS.map((d) => `${d}/*/`)] },
    why: "it lists the names in a directory of keys and credentials, which tell which keys, accounts and profiles exist",
    instead: "ask the user which key or profile to use; `ssh-add -l` and `aws configure list-profiles` show what is configured",
  },
  {
    id: "secrets.env-file-shared",
    effect: "ask",
    // `docker run --env-file .env someone/tool`: the secrets go into code nobody here wrote (a container printing
    // them is a read); `kubectl create configmap --from-env-file .env`: into a store anyone with the cluster reads
    paths: { access: "no-share", patterns: ENV_FILES, except: ENV_TEMPLATES },
    why: "it hands the secrets of an environment file to a container image whose behaviour is not known, or to a store that is not secret",
    instead: "pass only the variables the container needs (`-e NAME`), use an image you built from this project, or a `kubectl create secret`",
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
    // a link to one of them is a way to write it later, by a name no rule knows
    fileEffect: { access: ["write", "delete", "chmod", "chown", "link", "hardlink"], targets: ["claude-config"] },
    why: "it changes Claude Code settings or lanes' policy, hooks or state, which decide what agents may do",
    instead: "use the `lanes` commands for state (progress, memory, checkpoints), and tell the user which setting or policy change you want",
  },
  {
    // every route (Write, Edit, MultiEdit, a shell redirect with the text it writes): a change of the
    // keys that decide whether the guard runs is denied, also where lanes.config only asks
    id: "guard.settings-write",
    effect: "deny",
    guardWrite: { format: "claude-settings" },
    why: "it changes a Claude Code setting that decides whether lanes' guard runs, or names a program Claude Code runs",
    instead: "tell the user which setting you want changed and why; they can change it themselves",
  },
  {
    // the file tools show the user the edit and ask (lanes.config); a shell command changes the
    // same files without showing the change, and that is how a guard gets switched off
    id: "lanes.config-shell",
    effect: "deny",
    fileEffect: { access: ["write", "delete", "chmod", "chown", "link", "hardlink"], targets: ["claude-config"], shell: true },
    why: "a shell command changes Claude Code settings or lanes' policy, hooks or state without showing the change",
    instead: "use the `lanes` commands for state, and the Edit tool (which shows the change) or ask the user for settings and policy",
  },
  {
    id: "lanes.uninstall",
    effect: "deny",
    command: { program: ["lanes"], args: ["uninstall"], flags_none: ["--help", "-h", "--dry-run"] },
    why: "it removes lanes' guard from the project",
    instead: "ask the user to uninstall lanes",
  },
  {
    id: "lanes.uninstall-script",
    effect: "deny",
    command: { program: ["node", "bun", "deno"], args: ["*lanes/dist/cli.mjs|*lanes/dist/cli.cjs|*lanes/dist/cli.js", "uninstall"], flags_none: ["--help", "-h", "--dry-run"] },
    why: "it removes lanes' guard from the project",
    instead: "ask the user to uninstall lanes",
  },
  {
    // `lanes undo` writes files back over the work tree: the human says when (the model may list and propose)
    id: "lanes.undo",
    effect: "ask",
    command: { program: ["lanes"], args: ["undo"], flags_none: ["--help", "-h", "--dry-run", "--list"] },
    why: "`lanes undo` writes a snapshot's files back over the work tree, which the user decides",
    instead: "run `lanes undo --list` or `lanes undo --dry-run` and propose the undo to the user",
  },
  {
    id: "lanes.undo-script",
    effect: "ask",
    command: { program: ["node", "bun", "deno"], args: ["*lanes/dist/cli.mjs|*lanes/dist/cli.cjs|*lanes/dist/cli.js", "undo"], flags_none: ["--help", "-h", "--dry-run", "--list"] },
    why: "`lanes undo` writes a snapshot's files back over the work tree, which the user decides",
    instead: "run `lanes undo --list` or `lanes undo --dry-run` and propose the undo to the user",
  },
  {
    // the human override (src/hooks/state/override.ts): its key and store live in the project's
    // private directory out of the project; only the hooks write offers and grants, from the
    // human's prompt. The old in-project store stays covered (a file left by an older lanes).
    id: "lanes.override",
    effect: "deny",
    paths: {
      access: "zero-access",
      patterns: ["~/.claude/lanes/private/", ".claude/lanes/state/overrides.json", ".claude/lanes/state/overrides.json.*", ".claude/lanes/state/.overrides.json.*", ".claude/state/overrides.json", ".claude/state/overrides.json.*", ".claude/state/.overrides.json.*"],
    },
    why: "it holds the human's one-time overrides of denied calls, which only the human grants",
    instead: "ask the user to type the `lanes allow` code lanes showed them, if they want the denied call to run once",
  },
  {
    // Claude Code's transcripts record what the hooks showed only the human (an override code) and
    // every prompt of every session: a read is the human's call; a subagent has no one to ask
    id: "claude.transcript-read",
    effect: "ask",
    subagentEffect: "deny",
    paths: { access: "no-read", patterns: ["~/.claude/projects/"] },
    why: "Claude Code's transcripts hold the conversation, including what lanes showed only the user",
    instead: "ask the user for what you need from an earlier session",
  },
  {
    // a line written into the transcript is a prompt the session would take for the user's on resume
    id: "claude.transcript-write",
    effect: "deny",
    paths: { access: "read-only", patterns: ["~/.claude/projects/"] },
    why: "a written transcript line passes for the user's or the model's words when the session is resumed",
    instead: "leave Claude Code's transcripts to Claude Code; write notes to a file in the project",
  },
  // human-only lanes commands: the human's answers (`lanes decide`, `lanes allow`) come through the
  // prompt (UserPromptSubmit), never from a tool call, under any spelling of the CLI
  {
    id: "lanes.human-only",
    effect: "deny",
    command: { program: ["lanes"], args: ["decide|allow"], flags_none: ["--help", "-h"] },
    why: "it gives the user's answer to a hold or a denial, which only the user gives",
    instead: "stop and ask the user to decide; they answer with `lanes decide` in their terminal or `lanes allow <code>` as a prompt",
  },
  {
    id: "lanes.human-only-script",
    effect: "deny",
    command: { program: ["node", "bun", "deno"], args: ["*lanes/dist/cli.mjs|*lanes/dist/cli.cjs|*lanes/dist/cli.js|*lanes/*/dist/cli.mjs|*lanes/*/dist/cli.cjs", "decide|allow"], flags_none: ["--help", "-h"] },
    why: "it gives the user's answer to a hold or a denial, which only the user gives",
    instead: "stop and ask the user to decide; they answer with `lanes decide` in their terminal or `lanes allow <code>` as a prompt",
  },
  {
    // a hook run by hand takes its stdin for what Claude Code sends: a made-up UserPromptSubmit
    // would pass for the user's prompt
    id: "lanes.hook-run",
    effect: "deny",
    command: { program: ["node", "bun", "deno"], args: ["*lanes/dist/*.cjs|*lanes/*/dist/*.cjs|tasks.cjs|events.cjs|pre-tool-use.cjs|post-tool-use.cjs|session-start.cjs"] },
    why: "it runs one of lanes' hooks by hand, whose input would pass for what Claude Code sends",
    instead: "let Claude Code run the hooks; judge a command with `lanes check '<command>'`",
  },
  {
    // a prompt of a Claude Code client that a tool started, in this very session, is not the human's
    id: "lanes.override-session",
    effect: "deny",
    // any spelling: `claude`, `node <package>/cli-wrapper.cjs`, `npx @anthropic-ai/claude-code`, a copy, the SDK's `resume`
    agentRun: { runs: "resume" },
    why: "it continues a Claude Code session from a tool, where its prompts would pass for the user's",
    instead: "start a fresh `claude -p` session, or ask the user to continue this one",
  },
];
