/**
 * Persistence and tampering: shell startup files, scheduled jobs and login agents that run code
 * later; global switches that turn off hooks or TLS checks; wiping shell history and audit logs;
 * permission changes that open system files, set-user-id bits or loosen a key's mode.
 */
import type { RuleSpec } from "./types.ts";

/** Modes that give the group or others access (a key must stay 600 or 400). */
const LOOSE_MODES =
  "644|664|666|655|755|775|777|744|754|755|740|750|760|770|711|701|640|660|444|440|404|0644|0664|0666|0755|0775|0777|0744|0750|0770|0711|0640|0660|0444|0440|a+*|o+*|g+*|go+*|og+*|ug+*|ugo+*|+r*|+w*|a=*|o=*|g=*|go=r*|go=w*";

/** Set-user-id and set-group-id bits, octal or symbolic. */
const SETID_MODES =
  "*+*s*|*=*s*|4755|4750|4711|4777|4775|4555|4511|4500|4700|2755|2775|2770|2777|2750|6755|6775|6777|6750|04755|04750|04711|04777|02755|02775|02770|06755|06777|7755|7777";

/** Private keys and credential files, as chmod operands. */
const SECRET_OPERANDS = [
  "~/.ssh",
  "~/.ssh/id_rsa",
  "~/.ssh/id_dsa",
  "~/.ssh/id_ecdsa",
  "~/.ssh/id_ed25519",
  "~/.ssh/id_ecdsa_sk",
  "~/.ssh/id_ed25519_sk",
  "~/.ssh/*.pem",
  "~/.ssh/*.key",
  "*.key",
  "~/.aws",
  "~/.aws/credentials",
  "~/.gnupg",
  "~/.gnupg/**",
  "~/.netrc",
  "~/.pgpass",
  "~/.git-credentials",
  "~/.docker/config.json",
  "~/.kube/config",
  ".env",
  ".env.local",
  ".env.production",
];

export const persistenceRules: readonly RuleSpec[] = [
  {
    id: "persist.startup-files",
    effect: "deny",
    paths: {
      access: "read-only",
      patterns: [
        "~/.bashrc",
        "~/.bash_profile",
        "~/.bash_login",
        "~/.bash_logout",
        "~/.profile",
        "~/.zshrc",
        "~/.zshenv",
        "~/.zprofile",
        "~/.zlogin",
        "~/.zlogout",
        "~/.config/fish/config.fish",
        "~/.config/fish/conf.d/",
        "~/.kshrc",
        "~/.cshrc",
        "~/.tcshrc",
        "~/.xinitrc",
        "~/.xprofile",
        "~/.xsessionrc",
        "~/.pam_environment",
        "~/.config/environment.d/",
        "~/.config/autostart/",
        "~/.config/systemd/user/",
        "~/.local/share/systemd/user/",
        "~/Library/LaunchAgents/",
        "~/.ssh/rc",
        "~/.ssh/authorized_keys",
        "~/.ssh/authorized_keys2",
        "~/.ssh/environment",
        "~/.gitconfig",
        "~/.config/git/config",
        "~/.config/git/hooks/",
      ],
    },
    why: "shell startup files, login agents, user services and the global git config run or steer code in every later session",
    instead: "show the user the line to add and let them add it, or set the variable for this one command",
  },
  {
    id: "persist.crontab-install",
    effect: "deny",
    command: { program: ["crontab"], args: ["*"], flags_none: ["-l", "-e", "-r", "-i", "--help", "-h", "-T"] },
    why: "installing a crontab replaces every scheduled job of the user with the given ones, and schedules code to run later",
    instead: "show the user the crontab line, and let them add it with `crontab -e`",
  },
  {
    id: "persist.launchd-load",
    effect: "deny",
    command: { program: ["launchctl"], args: ["load|bootstrap|submit|enable"], flags_none: ["--help", "-h"] },
    why: "it installs a launch agent or daemon that runs at every login or boot",
    instead: "show the user the property list and let them load it",
  },
  {
    id: "persist.git-hooks-path",
    effect: "deny",
    command: { program: ["git"], args: ["config", "**", "core.hookspath"], flags_any: ["--global", "--system"], flags_none: ["--get", "--get-all", "--unset", "--unset-all", "-l", "--list"] },
    why: "a global hooks path replaces every repository's own hooks, or turns them off",
    instead: "set `core.hooksPath` in this repository only (`git config core.hooksPath .githooks`)",
  },
  {
    id: "persist.git-hooks-off",
    effect: "deny",
    command: { program: ["git"], args: ["config", "**", "core.hookspath", "/dev/null|nul|nul:"] },
    why: "pointing `core.hooksPath` at nothing turns off the repository's checks",
    instead: "leave the hooks on, and fix what they report",
  },
  {
    id: "safety.tls-verify-off",
    effect: "deny",
    command: { program: ["git"], args: ["config", "**", "http.sslverify|http.*.sslverify", "false|0|no|off"] },
    why: "it turns off TLS certificate checks, so any host can pose as the remote",
    instead: "add the CA with `git config http.sslCAInfo <ca.pem>`",
  },
  {
    id: "safety.tls-verify-off-npm",
    effect: "deny",
    command: { program: ["npm", "pnpm", "yarn"], args: ["config", "set", "strict-ssl|strict-ssl=false|strictSsl|enableStrictSsl", "**"], flags_none: ["--help"] },
    why: "it turns off TLS certificate checks for the package registry",
    instead: "set the CA with `npm config set cafile <ca.pem>`",
  },
  {
    id: "audit.history-clear",
    effect: "deny",
    command: { program: ["history"], flags_any: ["-c", "-d"] },
    why: "it erases the shell history",
    instead: "leave the history alone; `history | tail` shows recent commands",
  },
  {
    id: "audit.history-off",
    effect: "deny",
    command: { program: ["export", "declare", "typeset", "readonly"], args: ["**", "HISTFILE=/dev/null|HISTFILE=|HISTSIZE=0|HISTFILESIZE=0|SAVEHIST=0"] },
    why: "it turns off the shell history, so what runs next leaves no record",
    instead: "leave the history settings alone",
  },
  {
    id: "audit.history-unset",
    effect: "deny",
    command: { program: ["unset"], args: ["**", "HISTFILE"] },
    why: "it turns off the shell history, so what runs next leaves no record",
    instead: "leave the history settings alone",
  },
  {
    id: "audit.history-option-off",
    effect: "deny",
    command: { program: ["set"], args: ["+o", "history"] },
    why: "it turns off the shell history, so what runs next leaves no record",
    instead: "leave the history settings alone",
  },
  {
    id: "audit.journal-vacuum",
    effect: "deny",
    command: { program: ["journalctl"], flags_any: ["--vacuum-time", "--vacuum-size", "--vacuum-files"] },
    why: "it deletes the system journal",
    instead: "read it with `journalctl --disk-usage` or `journalctl -u <unit>`, and ask the user to trim logs",
  },
  {
    id: "audit.auditctl-off",
    effect: "deny",
    command: { program: ["auditctl"], flags_any: ["-D"] },
    why: "it deletes every audit rule",
    instead: "list rules with `auditctl -l`",
  },
  {
    id: "audit.auditctl-disable",
    effect: "deny",
    command: { program: ["auditctl"], option_values: { "-e": ["0"] } },
    why: "it turns off kernel auditing",
    instead: "list rules with `auditctl -l`",
  },
  {
    id: "audit.windows-event-log",
    effect: "deny",
    command: { program: ["wevtutil", "wevtutil.exe"], args: ["cl|clear-log|um|uninstall-manifest"] },
    why: "it clears a Windows event log",
    instead: "read it with `wevtutil qe`",
  },
  {
    id: "audit.powershell-event-log",
    effect: "deny",
    command: { program: ["Clear-EventLog", "clear-eventlog", "Remove-EventLog", "remove-eventlog", "Limit-EventLog"] },
    why: "it clears or removes a Windows event log",
    instead: "read it with `Get-EventLog`",
  },
  {
    id: "perm.grant-admin",
    effect: "deny",
    command: { program: ["usermod"], option_values: { "-G": ["sudo", "wheel", "admin", "root", "*,sudo*", "*,wheel*", "*,admin*", "*,root*", "sudo,*", "wheel,*", "admin,*", "root,*"] } },
    why: "it adds an account to an administrators group",
    instead: "ask the user to change group membership",
  },
  {
    id: "perm.grant-admin-group",
    effect: "deny",
    command: { program: ["gpasswd", "adduser", "addgroup", "dseditgroup"], args: ["**", "sudo|wheel|admin|root"] },
    why: "it adds an account to an administrators group",
    instead: "ask the user to change group membership",
  },
  {
    id: "perm.setuid",
    effect: "deny",
    command: { program: ["chmod"], args: [SETID_MODES], flags_none: ["--help"] },
    why: "a set-user-id or set-group-id bit lets anyone run the file with its owner's privileges",
    instead: "give the file ordinary execute permission (`chmod +x`)",
  },
  {
    id: "perm.secret-loosen",
    effect: "deny",
    command: { program: ["chmod"], args: [LOOSE_MODES], operands: SECRET_OPERANDS },
    why: "it lets other users read a private key or credential file",
    instead: "keep keys private (`chmod 600 <key>`, `chmod 700 ~/.ssh`)",
  },
  {
    id: "perm.system",
    effect: "deny",
    // recursive ones are fs.chmod-recursive-system
    fileEffect: { access: ["chmod", "chown"], targets: ["system", "root"], recursive: false },
    why: "it changes the mode or owner of operating-system files",
    instead: "change only project files, and ask the user to change system files",
  },
];
