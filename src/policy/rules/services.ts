/**
 * The services a coding agent meets beyond the core: backups, secret managers, CI/CD and feature
 * flags, DNS and container registries. What the broad rules already take is left to them (`aws ...
 * delete-*`, `gcloud ... delete`, `az ... delete` in cloud.ts; `vault kv destroy` is db.store-delete;
 * `gh secret|repo|release delete` and `doctl` are cloud.platform-delete; `rclone purge|delete|sync`
 * is cloud.rclone-delete; `curl -X DELETE` to a flag service's API is net.http-delete).
 */
import type { RuleSpec } from "./types.ts";

const HELP = ["--help", "-h"];

export const serviceRules: readonly RuleSpec[] = [
  // ---------------------------------------------------------------- backups
  {
    id: "backup.restic-forget",
    effect: "deny",
    // `restic -r REPO forget --keep-last 1 --prune`, `restic prune`; `forget --dry-run` only lists
    command: { program: ["restic"], args: ["**", "forget|prune"], flags_none: ["--dry-run", "-n", ...HELP] },
    why: "it removes snapshots from the backup repository, and with them the only copy of old data",
    instead: "run it with `--dry-run` and show the user what would go, or ask the user to prune backups",
  },
  {
    id: "backup.borg-delete",
    effect: "deny",
    command: { program: ["borg", "borgmatic"], args: ["**", "delete|prune|rdelete|rlist-delete"], flags_none: ["--dry-run", "-n", ...HELP] },
    why: "it deletes archives from the backup repository, and with them the only copy of old data",
    instead: "run `borg prune --dry-run --list` and show the user what would go, or ask the user",
  },
  {
    id: "backup.kopia-delete",
    effect: "deny",
    // without `--delete` kopia only shows what it would delete
    command: { program: ["kopia"], args: ["snapshot", "delete|expire"], flags_any: ["--delete"], flags_none: HELP },
    why: "it deletes snapshots from the backup repository, and with them the only copy of old data",
    instead: "run it without `--delete` to list what would go, and ask the user",
  },
  {
    id: "backup.duplicity-remove",
    effect: "deny",
    // without `--force` duplicity only lists what it would remove
    command: { program: ["duplicity", "duply"], args: ["remove-older-than|remove-all-but-n-full|remove-all-inc-of-but-n-full|cleanup|purge|purge-full", "**"], flags_any: ["--force", "-f"] },
    why: "it removes backup sets, and with them the only copy of old data",
    instead: "run it without `--force` to list what would go, and ask the user",
  },
  {
    id: "backup.tarsnap-delete",
    effect: "deny",
    command: { program: ["tarsnap"], flags_any: ["-d", "--nuke"], flags_none: ["--dry-run"] },
    why: "it deletes archives from the backup service, or every archive with `--nuke`",
    instead: "list archives with `tarsnap --list-archives`, and ask the user to delete them",
  },
  // ---------------------------------------------------------------- secret managers
  {
    id: "secrets.manager-delete",
    effect: "deny",
    // `op item delete --archive` keeps it recoverable
    command: {
      program: ["op", "doppler", "infisical", "bw", "lpass", "berglas", "chamber", "akeyless", "teller", "keeper", "phase"],
      args: ["**", "delete|rm|remove|destroy|purge|delete-*"],
      flags_none: ["--archive", "--dry-run", ...HELP],
    },
    why: "it deletes secrets or vaults from a secret manager, which the services and people using them depend on",
    instead: "ask the user to delete secrets; list them with the manager's `list` command",
  },
  // ---------------------------------------------------------------- CI/CD and feature flags
  {
    id: "cicd.workflow-disable",
    effect: "deny",
    command: { program: ["gh"], args: ["workflow", "disable"], flags_none: HELP },
    why: "it switches off a CI workflow, so checks and deploys stop running for everyone",
    instead: "ask the user to disable workflows; `gh workflow list` shows their state",
  },
  {
    id: "cicd.release-asset-delete",
    effect: "deny",
    command: { program: ["gh"], args: ["release", "delete-asset"], flags_none: HELP },
    why: "it deletes a published release's files, which users and pipelines download",
    instead: "ask the user to change published releases",
  },
  {
    id: "cicd.service-delete",
    effect: "deny",
    // CircleCI contexts and secrets, Buildkite, Travis, LaunchDarkly's and other flag services' CLIs
    command: {
      program: ["circleci", "bk", "travis", "ldcli", "flagsmith", "unleash", "configcat", "split", "statsig", "argo", "tkn", "jx", "woodpecker-cli", "drone"],
      args: ["**", "delete|remove-secret|remove|rm|unlist|destroy|archive|unset|purge"],
      flags_none: ["--dry-run", ...HELP],
    },
    why: "it deletes CI/CD configuration, secrets or feature flags that running services and pipelines depend on",
    instead: "ask the user to delete them; list them with the tool's `list` command",
  },
  // ---------------------------------------------------------------- DNS
  {
    id: "dns.route53-delete-record",
    effect: "deny",
    // the change batch inline or in a file (`file://batch.json`, read as the CLI reads it)
    command: {
      program: ["aws", "awslocal", "aws.exe", "aws2"],
      args: ["route53", "change-resource-record-sets"],
      option_values: { "--change-batch": ["*\"DELETE\"*", "*Action=DELETE*", "*\"Action\": \"DELETE\"*", "*'DELETE'*"] },
      flags_none: HELP,
    },
    why: "it deletes DNS records, which takes the names they serve off the internet",
    instead: "show the user the change batch and let them apply it",
  },
  {
    id: "dns.record-remove",
    effect: "deny",
    // `gcloud dns record-sets transaction remove`, `az network dns record-set a remove-record` (their `delete` is cloud.ts')
    command: { program: ["gcloud", "az"], args: ["**", "dns", "**", "remove|remove-record"], flags_none: ["--dry-run", ...HELP] },
    why: "it deletes DNS records, which takes the names they serve off the internet",
    instead: "show the user the change and let them apply it",
  },
  {
    id: "dns.record-delete",
    effect: "deny",
    // Cloudflare's `flarectl dns delete`, `cli53 rrdelete`, `lexicon PROVIDER delete`
    command: { program: ["flarectl", "cli53", "lexicon"], args: ["**", "delete|rrdelete|purge|rrpurge"], flags_none: ["--dry-run", ...HELP] },
    why: "it deletes DNS records, which takes the names they serve off the internet",
    instead: "show the user the change and let them apply it",
  },
  // ---------------------------------------------------------------- container registries
  {
    id: "registry.image-delete",
    effect: "deny",
    command: {
      program: ["crane", "gcrane", "skopeo", "regctl", "oras", "regclient", "jf", "jfrog", "harbor", "quay"],
      args: ["**", "delete|del|rm|delete-manifest|delete-tag|untag"],
      flags_none: ["--dry-run", ...HELP],
    },
    // (`doctl registry repository delete-manifest` is cloud.platform-delete's)
    why: "it deletes images or tags from a container registry, which deploys and other people pull",
    instead: "ask the user to delete images; list them with `crane ls` or the registry's own tools",
  },
];
