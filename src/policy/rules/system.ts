/**
 * Disks, power and processes: tools that take the machine down or wipe devices on Linux, macOS
 * and Windows. Disk tools count only when given a device, a system path or `/`: an image file
 * (`mkfs.ext4 build/disk.img`, `mkswap ~/swap.img`, `mkfs.xfs /tmp/test.img`) is not a disk.
 */
import type { RuleSpec } from "./types.ts";

/** Where a disk tool's operand must point for it to be a disk operation. */
const disks = ["device", "system", "served", "root"] as const;

/** Packages without which the system does not boot, log in or reach the network. */
const ESSENTIAL =
  "libc6|libc6:*|libc-bin|glibc|glibc-*|systemd|systemd:*|systemd-sysv|coreutils|bash|dash|sudo|python3|python3-minimal|linux-image*|linux-generic*|linux-firmware|kernel|kernel-core|grub*|shim*|openssh-server|apt|dpkg|rpm|yum|dnf|pacman|util-linux|login|passwd|base-files|base-passwd|init|e2fsprogs|libpam*|filesystem|network-manager|netplan.io|ifupdown";

export const systemRules: readonly RuleSpec[] = [
  {
    id: "disk.mkfs",
    effect: "deny",
    command: { program: ["mkfs", "mkfs.*", "mke2fs", "mkswap", "newfs", "newfs_*", "mkntfs", "mkdosfs", "mkexfatfs", "mkfs.exfat", "mkudffs", "mkreiserfs", "mkxfs"], targets: [...disks] },
    why: "making a filesystem erases the device or image it is given",
    instead: "ask the user to format devices themselves",
  },
  {
    id: "disk.wipefs",
    effect: "deny",
    // without `-a`/`-o` wipefs only lists the signatures it finds
    command: { program: ["wipefs"], flags_any: ["-a", "--all", "-o", "--offset"], flags_none: ["-n", "--no-act"], targets: [...disks] },
    why: "`wipefs` erases filesystem signatures from a device",
    instead: "run `wipefs -n` to list signatures, and ask the user to erase them",
  },
  {
    id: "disk.partition",
    effect: "deny",
    // read-only uses: `fdisk -l`, `sgdisk -p`, `sfdisk --dump`/`--json`, `parted /dev/sda print`
    command: {
      program: ["fdisk", "sfdisk", "gdisk", "sgdisk", "cfdisk", "parted", "partx", "growpart", "kpartx"],
      targets: ["device"],
      flags_none: ["-l", "--list", "-p", "--print", "--dump", "--json", "-J", "--verify", "--list-free", "--show-size", "--info", "--help", "-h", "--version"],
      words_none: ["print"],
    },
    why: "partitioning tools rewrite a disk's partition table",
    instead: "use `lsblk` or `fdisk -l` to inspect disks, and ask the user to repartition",
  },
  {
    id: "disk.discard",
    effect: "deny",
    // cryptsetup only with its erasing verbs (`luksFormat`, `erase`), not `open`/`status`/`luksDump`
    command: {
      program: ["blkdiscard", "cryptsetup", "sg_format", "sg_sanitize", "pvcreate", "scrub", "wipe", "srm"],
      targets: ["device", "system"],
      words_none: ["open|luksOpen|close|luksClose|status|luksDump|isLuks|luksUUID|tcryptDump|bitlkDump|config|resize|refresh|benchmark|luksAddKey|luksHeaderBackup"],
    },
    why: "it destroys the data on a block device",
    instead: "ask the user to do this themselves",
  },
  {
    id: "disk.volume-destroy",
    effect: "deny",
    command: { program: ["zpool", "zfs", "btrfs"], args: ["**", "destroy|delete|labelclear"], flags_none: ["--help", "-h", "-n"] },
    why: "it destroys a storage pool, dataset or subvolume with the data on it",
    instead: "ask the user to change storage volumes",
  },
  {
    id: "disk.pool-create",
    effect: "deny",
    command: { program: ["zpool"], args: ["create|add|attach|replace|split|initialize"], targets: ["device"], flags_none: ["-n", "--help", "-h"] },
    why: "it writes a new pool label over the device it is given, erasing what is on it",
    instead: "ask the user to create or change storage pools",
  },
  {
    id: "disk.gpt-destroy",
    effect: "deny",
    command: { program: ["gpt", "gpart"], args: ["destroy|create|remove|delete|recover|migrate"] },
    why: "it destroys or rewrites a disk's partition table",
    instead: "use `gpt show` or `gpart show` to inspect disks, and ask the user to repartition",
  },
  {
    id: "disk.windows-shadow-delete",
    effect: "deny",
    command: { program: ["vssadmin", "vssadmin.exe", "wbadmin", "wbadmin.exe"], args: ["delete|resize"] },
    why: "it deletes the volume shadow copies or backups that recovery depends on",
    instead: "ask the user to manage backups and shadow copies",
  },
  {
    id: "disk.snapshot-delete",
    effect: "deny",
    command: { program: ["tmutil", "snapper"], args: ["**", "delete|deletelocalsnapshots|deleteinprogress"], flags_none: ["--help", "-h"] },
    why: "it deletes the backups or snapshots that recovery depends on",
    instead: "ask the user to manage backups and snapshots",
  },
  {
    id: "disk.timeshift-delete",
    effect: "deny",
    command: { program: ["timeshift"], flags_any: ["--delete", "--delete-all"] },
    why: "it deletes the system snapshots that recovery depends on",
    instead: "ask the user to manage backups and snapshots",
  },
  {
    id: "disk.wmic-shadow-delete",
    effect: "deny",
    command: { program: ["wmic", "wmic.exe"], args: ["shadowcopy", "delete"] },
    why: "it deletes the volume shadow copies that recovery depends on",
    instead: "ask the user to manage backups and shadow copies",
  },
  {
    id: "disk.lvm-remove",
    effect: "deny",
    command: { program: ["lvremove", "vgremove", "pvremove", "lvreduce", "vgreduce"], flags_none: ["--help", "-h", "--test", "-t"] },
    why: "it removes a logical volume, volume group or physical volume and the data on it",
    instead: "ask the user to change storage volumes",
  },
  {
    id: "disk.device-erase",
    effect: "deny",
    command: { program: ["nvme", "hdparm", "mdadm", "badblocks"], flags_any: ["--security-erase", "--security-erase-enhanced", "--trim-sector-ranges", "--write-sector", "--zero-superblock", "-w", "--ses", "--sanact"] },
    why: "it erases a disk, or overwrites its sectors or array metadata",
    instead: "ask the user to erase disks themselves",
  },
  {
    id: "disk.nvme-format",
    effect: "deny",
    command: { program: ["nvme"], args: ["format|sanitize|delete-ns|detach-ns"] },
    why: "it formats or sanitizes an NVMe drive, erasing everything on it",
    instead: "ask the user to erase disks themselves",
  },
  {
    id: "disk.macos-erase",
    effect: "deny",
    command: {
      program: ["diskutil"],
      args: ["**", "eraseDisk|eraseVolume|zeroDisk|randomDisk|secureErase|partitionDisk|reformat|eraseVolume|deleteContainer|deleteVolume|deleteSnapshot|splitPartition|mergePartitions|resizeVolume|addPartition|erase|deleteContainer"],
    },
    why: "it erases or repartitions a disk",
    instead: "use `diskutil list` to inspect disks, and ask the user to erase them",
  },
  {
    id: "disk.windows-format",
    effect: "deny",
    command: { program: ["format", "format.com", "diskpart", "diskpart.exe"], flags_none: ["/?", "-?", "--help"] },
    why: "it formats or wipes a Windows volume (`diskpart` runs `clean` and `format` scripts)",
    instead: "ask the user to format or clean disks themselves",
  },
  {
    id: "disk.powershell-erase",
    effect: "deny",
    command: { program: ["Format-Volume", "Clear-Disk", "Initialize-Disk", "Remove-Partition", "format-volume", "clear-disk", "initialize-disk", "remove-partition"] },
    why: "it formats or wipes a disk or volume",
    instead: "ask the user to format or clean disks themselves",
  },
  {
    id: "sys.shutdown",
    effect: "deny",
    command: { program: ["shutdown", "reboot", "halt", "poweroff", "shutdown.exe", "Stop-Computer", "Restart-Computer"], flags_none: ["-c", "--help", "-k"], words_none: ["/a|/?"] },
    why: "it shuts down or restarts the machine",
    instead: "ask the user to restart the machine when they are ready",
  },
  {
    id: "sys.systemctl-power",
    effect: "deny",
    command: { program: ["systemctl", "loginctl"], args: ["poweroff|reboot|halt|kexec|suspend|hibernate|rescue|emergency|soft-reboot"] },
    why: "it changes the machine's power state",
    instead: "ask the user to restart the machine when they are ready",
  },
  {
    id: "sys.systemctl-isolate",
    effect: "deny",
    command: {
      program: ["systemctl"],
      args: ["isolate|start|restart", "rescue|rescue.target|emergency|emergency.target|poweroff.target|reboot.target|halt.target|kexec.target|runlevel0.target|runlevel1.target|runlevel6.target|shutdown.target|soft-reboot.target"],
    },
    why: "it switches the machine to a rescue, halt or reboot state, stopping every service",
    instead: "ask the user to change the system state when they are ready",
  },
  {
    id: "sys.systemctl-kill-core",
    effect: "deny",
    command: {
      program: ["systemctl"],
      args: ["kill|stop|mask|freeze", "**", "*|init.scope|system.slice|user.slice|systemd-journald|systemd-journald.service|systemd-logind|systemd-logind.service|dbus|dbus.service|dbus-broker.service|user@*.service"],
    },
    why: "stopping init, the system slice or a core daemon brings the machine or every session down",
    instead: "stop the specific service you started, by its own name",
  },
  {
    id: "sys.launchctl-reboot",
    effect: "deny",
    command: { program: ["launchctl"], args: ["reboot|halt"] },
    why: "it restarts, halts or logs out the macOS machine",
    instead: "ask the user to restart the machine when they are ready",
  },
  {
    id: "sys.osascript-shutdown",
    effect: "deny",
    command: { program: ["osascript"], option_values: { "-e": ["*shut down*", "*to restart*", "*to log out*"] } },
    why: "the AppleScript shuts down, restarts or logs out the machine",
    instead: "ask the user to restart the machine when they are ready",
  },
  {
    id: "sys.kexec",
    effect: "deny",
    command: { program: ["kexec"], flags_any: ["-e", "--exec", "-f", "--force"] },
    why: "it jumps into another kernel at once, stopping everything running",
    instead: "ask the user to restart the machine when they are ready",
  },
  {
    id: "sys.end-sessions",
    effect: "deny",
    command: { program: ["loginctl"], args: ["terminate-user|terminate-session|terminate-seat|kill-user|kill-session"] },
    why: "it ends a user's sessions and every process in them, this one included",
    instead: "stop the specific process you started, by its own pid",
  },
  {
    id: "sys.init-runlevel",
    effect: "deny",
    command: { program: ["init", "telinit"], args: ["0|1|6|s|S"] },
    why: "changing the runlevel shuts down or restarts the machine",
    instead: "ask the user to restart the machine when they are ready",
  },
  {
    id: "sys.kill-init",
    effect: "deny",
    // `kill -HUP 1` reloads pid 1 (the main process of a container); `kill -0 1` only checks it
    command: { program: ["kill"], args: ["1"], flags_none: ["-0", "-HUP", "-SIGHUP", "-USR1", "-SIGUSR1", "-USR2", "-SIGUSR2", "-CONT", "-SIGCONT", "-WINCH", "-SIGWINCH", "-l", "-L"] },
    why: "killing process 1 (init) brings the whole system down",
    instead: "kill the specific process you started, by its own pid",
  },
  {
    id: "sys.kill-all",
    effect: "deny",
    command: { program: ["kill"], flags_all: [["-9", "-KILL", "-SIGKILL", "-15", "-TERM", "-SIGTERM", "-s", "-n", "-HUP", "-INT", "-STOP", "-SIGSTOP", "-QUIT"], ["-1"]] },
    why: "`kill -9 -1` kills every process the user owns, the session included",
    instead: "kill the specific process you started, by its own pid",
  },
  {
    id: "sys.kill-all-operand",
    effect: "deny",
    command: { program: ["kill"], args: ["**", "-1"] },
    why: "signalling pid -1 reaches every process the user owns, the session included",
    instead: "kill the specific process you started, by its own pid",
  },
  {
    id: "sys.killall5",
    effect: "deny",
    command: { program: ["killall5"] },
    why: "it signals every process on the system",
    instead: "kill the specific process you started, by its own pid",
  },
  {
    id: "sys.kill-system-process",
    effect: "deny",
    command: {
      program: ["pkill", "killall", "kill", "taskkill", "Stop-Process", "skill"],
      args: ["**", "init|systemd|launchd|kernel_task|sshd|dbus-daemon|dbus|loginwindow|WindowServer|explorer.exe|csrss.exe|wininit.exe|winlogon.exe|lsass.exe|svchost.exe|systemd-journald|systemd-logind|containerd|dockerd|Xorg|gnome-shell|kworker"],
      // `pkill -HUP sshd` reloads its configuration
      flags_none: ["-0", "-HUP", "-SIGHUP", "-USR1", "-SIGUSR1", "-USR2", "-SIGUSR2", "-CONT", "-SIGCONT", "-WINCH", "-SIGWINCH"],
    },
    why: "killing init or a core system process brings the machine or the session down",
    instead: "kill the specific process you started, by its own pid",
  },
  {
    id: "sys.kill-client",
    effect: "deny",
    // `pkill -f claude`, `killall claude`, and `kill` given the client by a listing (`kill -9 $PPID`, `pgrep -f
    // claude | xargs kill`). The client names its process `claude` (node's `process.title`), so `killall node`
    // and `pkill node` (dev servers) do not reach it
    command: {
      program: ["pkill", "killall", "kill", "taskkill", "taskkill.exe", "Stop-Process", "skill"],
      args: ["**", "claude|claude.exe|claude-code"],
      flags_none: ["-0", "-HUP", "-SIGHUP", "-USR1", "-SIGUSR1", "-USR2", "-SIGUSR2", "-CONT", "-SIGCONT", "-WINCH", "-SIGWINCH", "-l", "-L", "--help"],
    },
    why: "it kills the Claude Code client running this session",
    instead: "kill the specific process you started, by its pid or an exact pattern (`pkill -f 'node dist/server.js'`)",
  },
  {
    id: "sys.kill-every-process",
    effect: "deny",
    command: { program: ["pkill", "killall", "skill", "Stop-Process", "stop-process", "spps"], args: ["**", ".|.*|.+|^|*|-1|[a-z]*|[^]*"] },
    why: "the pattern matches every process, the session included",
    instead: "kill the specific process you started, by its own pid",
  },
  {
    id: "sys.kill-user-processes",
    effect: "deny",
    // `pkill -u root`, `killall -u dev`: a user and no name or pattern selects all of that user's processes
    command: { program: ["pkill", "killall", "skill", "slay"], flags_any: ["-u", "--euid", "-U", "--uid", "--user"], words_none: ["*"] },
    why: "with a user and no process name it kills every process of that user, the session included",
    instead: "kill the specific process you started, by its pid or an exact name (`pkill -f 'node server.js'`)",
  },
  {
    id: "sys.kill-inverted-match",
    effect: "deny",
    command: { program: ["pkill"], flags_any: ["-v", "--inverse"], flags_none: ["--help"] },
    why: "an inverted match selects every process except the named ones",
    instead: "kill the specific process you started, by its pid or an exact name",
  },
  {
    id: "sys.taskkill-all",
    effect: "deny",
    command: { program: ["taskkill", "taskkill.exe"], args: ["**", "/fi"] },
    why: "a filter can match every process on the machine",
    instead: "kill the specific process you started, by its own pid",
  },
  {
    id: "sys.crontab-remove",
    effect: "deny",
    command: { program: ["crontab"], flags_any: ["-r"] },
    why: "`crontab -r` deletes every scheduled job of the user, with no confirmation",
    instead: "edit the crontab with `crontab -e` and remove only the line you mean",
  },
  {
    id: "sys.crontab-replace-empty",
    effect: "deny",
    command: { program: ["crontab"], args: ["**", "/dev/null"] },
    why: "installing an empty crontab deletes every scheduled job of the user",
    instead: "edit the crontab with `crontab -e` and remove only the line you mean",
  },
  {
    id: "sys.userdel",
    effect: "deny",
    command: { program: ["userdel", "deluser", "groupdel", "delgroup"], flags_none: ["--help", "-h"] },
    why: "it deletes a user account (with `-r`, the home directory too)",
    instead: "ask the user to change accounts",
  },
  {
    id: "sys.firewall-flush",
    effect: "deny",
    command: { program: ["iptables", "ip6tables", "iptables-legacy", "iptables-nft", "pfctl"], flags_any: ["-F", "--flush", "-X", "--delete-chain"] },
    why: "flushing the firewall drops every rule, and can cut off remote access",
    instead: "change the one rule you mean, or ask the user",
  },
  {
    id: "sys.firewall-default-drop",
    effect: "deny",
    command: { program: ["iptables", "ip6tables", "iptables-legacy", "iptables-nft"], flags_any: ["-P", "--policy"], args: ["**", "DROP|REJECT"], words_none: ["FORWARD|PREROUTING|POSTROUTING"] },
    why: "a default DROP policy on INPUT or OUTPUT cuts off every connection without an explicit rule, remote access included",
    instead: "add the specific rule you mean with `iptables -A`, or ask the user to change the default policy",
  },
  {
    id: "sys.mount-over-system",
    effect: "deny",
    command: { program: ["mount"], targets: ["system"], flags_none: ["--help", "-h", "-l", "--show-labels"] },
    why: "mounting over a system directory hides the operating system's files under it",
    instead: "mount under `/mnt` or a directory inside the project",
  },

  {
    id: "sys.firewall-reset",
    effect: "deny",
    command: { program: ["ufw", "nft", "firewall-cmd"], args: ["**", "reset|disable|flush|--panic-on"] },
    why: "resetting or disabling the firewall drops every rule, and can cut off remote access",
    instead: "change the one rule you mean, or ask the user",
  },
  {
    id: "sys.remove-essential-package",
    effect: "deny",
    command: {
      program: ["apt", "apt-get", "aptitude", "yum", "dnf", "microdnf", "zypper", "rpm", "dpkg", "pacman", "apk", "brew", "port", "snap", "emerge", "xbps-remove", "nix-env"],
      args: ["**", "remove|purge|erase|uninstall|del", "**", ESSENTIAL],
    },
    why: "removing a core system package breaks the operating system or remote access",
    instead: "ask the user to remove system packages",
  },
  {
    id: "sys.remove-essential-package-flag",
    effect: "deny",
    command: { program: ["rpm", "dpkg", "pacman"], flags_any: ["-e", "--erase", "-R", "--remove", "-P", "--purge", "-r"], args: ["**", ESSENTIAL] },
    why: "removing a core system package breaks the operating system or remote access",
    instead: "ask the user to remove system packages",
  },
  {
    id: "sys.package-force-remove",
    effect: "deny",
    command: { program: ["rpm", "dpkg"], flags_any: ["--nodeps", "--force-all", "--force-remove-essential", "--force-depends"] },
    why: "a forced package removal ignores dependencies and can leave the system unbootable",
    instead: "remove packages with dependency checks on, or ask the user",
  },
  {
    id: "sys.pacman-force-remove",
    effect: "deny",
    command: { program: ["pacman"], flags_all: [["-R", "--remove"], ["-d", "--nodeps"]] },
    why: "a forced package removal ignores dependencies and can leave the system unbootable",
    instead: "remove packages with dependency checks on, or ask the user",
  },
  {
    id: "sys.registry-unpublish",
    effect: "deny",
    command: { program: ["npm", "pnpm", "yarn", "cargo", "gem", "twine", "poetry", "dotnet", "nuget"], args: ["**", "unpublish|yank"], flags_none: ["--dry-run", "--help"] },
    why: "it withdraws a published package version that others depend on",
    instead: "publish a fixed version, or ask the user to unpublish",
  },
  {
    id: "sys.fork-bomb",
    effect: "deny",
    forkBomb: true,
    why: "a function that forks copies of itself, or a loop that starts processes without end, exhausts the machine's processes",
    instead: "there is no safe form of this; write a bounded loop if you need load",
  },
  {
    id: "container.vm-delete",
    effect: "deny",
    command: { program: ["colima", "limactl", "orb", "orbctl"], args: ["delete|rm|remove"], flags_none: ["--help", "-h"] },
    why: "deleting the container VM deletes every container, image and volume inside it",
    instead: "stop the VM (`colima stop`, `podman machine stop`), or ask the user to delete it",
  },
  {
    id: "container.machine-remove",
    effect: "deny",
    command: { program: ["podman", "finch"], args: ["machine|vm", "rm|remove"], flags_none: ["--help", "-h"] },
    why: "removing the container VM deletes every container, image and volume inside it",
    instead: "stop the VM (`podman machine stop`), or ask the user to remove it",
  },
  {
    id: "sys.wsl-unregister",
    effect: "deny",
    command: { program: ["wsl", "wsl.exe"], flags_any: ["--unregister"] },
    why: "unregistering a WSL distribution deletes its whole filesystem, home directories included",
    instead: "stop it with `wsl --terminate`, or ask the user to remove it",
  },
];
