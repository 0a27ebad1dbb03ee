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
];

export const persistenceRules: readonly RuleSpec[] = [
  {
    id: "persist.startup-files",
    effect: "deny",
    paths: {
      access: "no-write",
      patterns: [
        "~/.config/fish/conf.d/",
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
        "~/.ssh/authorized_keys2",
        "~/.ssh/environment",
        "~/.config/git/hooks/",
      ],
    },
    // shell startup files, the global git config and the ssh config are fs.overwrite-home-file's
    // (an overwrite is denied, an append or edit asked as a write outside the project)
    why: "login agents, user services and autostart entries run code at every later session",
    instead: "show the user the line to add and let them add it, or set the variable for this one command",
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
    command: { program: ["git"], args: ["config", "**", "core.hookspath", "*"], flags_any: ["--global", "--system"], flags_none: ["--get", "--get-all", "--unset", "--unset-all", "-l", "--list"] },
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
    id: "persist.windows-run-key",
    effect: "deny",
    command: { program: ["reg", "reg.exe"], args: ["add", "*currentversion*run*|*winlogon*|*image file execution options*"] },
    why: "it adds a program that Windows starts at every login",
    instead: "show the user the command, and let them add it",
  },
  {
    id: "persist.windows-scheduled-task",
    effect: "deny",
    command: { program: ["schtasks", "schtasks.exe"], args: ["/create|-create"] },
    why: "it schedules a program to run later, or at every login or boot",
    instead: "show the user the task, and let them create it",
  },
  {
    id: "safety.security-off",
    effect: "deny",
    command: { program: ["setenforce"], args: ["0|permissive"] },
    why: "it switches off SELinux enforcement for the whole machine",
    instead: "fix the policy denial the audit log shows, or ask the user",
  },
  {
    id: "safety.macos-protection-off",
    effect: "deny",
    command: { program: ["spctl", "csrutil"], flags_any: ["--master-disable", "--global-disable", "--disable"] },
    why: "it switches off Gatekeeper or System Integrity Protection",
    instead: "allow the one app with `xattr -d com.apple.quarantine <app>` after the user agrees",
  },
  {
    id: "safety.macos-sip-off",
    effect: "deny",
    command: { program: ["csrutil"], args: ["disable"] },
    why: "it switches off System Integrity Protection",
    instead: "ask the user",
  },
  {
    id: "safety.defender-off",
    effect: "deny",
    command: { program: ["Set-MpPreference", "set-mppreference"], flags_any: ["-DisableRealtimeMonitoring", "-DisableBehaviorMonitoring", "-DisableIOAVProtection", "-DisableScriptScanning"] },
    why: "it switches off Windows Defender's protection",
    instead: "add a narrow exclusion the user approves",
  },
  {
    id: "audit.history-clear",
    effect: "deny",
    command: { program: ["history"], flags_any: ["-c", "-d"] },
    why: "it erases the shell history",
    instead: "leave the history alone; `history | tail` shows recent commands",
  },
  {
    id: "audit.powershell-history-clear",
    effect: "deny",
    command: { program: ["Clear-History", "clear-history", "clhy"] },
    why: "it erases the shell history",
    instead: "leave the history alone; `Get-History` shows recent commands",
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
    // trimming to days or megabytes is housekeeping; to seconds, kilobytes or one file it wipes the journal
    command: { program: ["journalctl"], option_values: { "--vacuum-time": ["*s", "*sec", "*second", "*seconds", "0", "1", "*m", "*min", "*minute", "*minutes", "1h", "1hour"] } },
    why: "it deletes the system journal",
    instead: "read it with `journalctl --disk-usage` or `journalctl -u <unit>`, and ask the user to trim logs",
  },
  {
    id: "audit.journal-vacuum-size",
    effect: "deny",
    command: { program: ["journalctl"], option_values: { "--vacuum-size": ["*K", "*k", "*B", "0", "1", "1M", "1m"] } },
    why: "it deletes the system journal",
    instead: "read it with `journalctl --disk-usage` or `journalctl -u <unit>`, and ask the user to trim logs",
  },
  {
    id: "audit.journal-vacuum-files",
    effect: "deny",
    command: { program: ["journalctl"], option_values: { "--vacuum-files": ["0", "1"] } },
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
    id: "perm.home-lockout",
    effect: "deny",
    command: { program: ["chmod"], args: ["000|0000|0|a-rwx|ugo-rwx|a=|u-rwx|u=|-rwx|=", "**"], targets: ["home", "root", "project-root"], flags_none: ["-R", "--recursive"] },
    // recursive ones are fs.chmod-recursive-system
    why: "it takes every permission away from the home or project directory, locking the user out",
    instead: "remove only group and other permissions, e.g. `chmod go-rwx <dir>`",
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
