/** Disks, power and processes: tools that take the machine down or wipe devices. */
import type { RuleSpec } from "./types.ts";

export const systemRules: readonly RuleSpec[] = [
  {
    id: "disk.mkfs",
    effect: "deny",
    command: { program: ["mkfs", "mkfs.*", "mke2fs", "mkswap", "newfs", "newfs_*", "mkntfs", "mkdosfs"] },
    why: "making a filesystem erases the device or image it is given",
    instead: "ask the user to format devices themselves",
  },
  {
    id: "disk.wipefs",
    effect: "deny",
    command: { program: ["wipefs"], flags_none: ["-n", "--no-act"] },
    why: "`wipefs` erases filesystem signatures from a device",
    instead: "run `wipefs -n` to list signatures, and ask the user to erase them",
  },
  {
    id: "disk.partition",
    effect: "deny",
    command: { program: ["fdisk", "sfdisk", "gdisk", "sgdisk", "cfdisk", "parted"], targets: ["device"], flags_none: ["-l", "--list"] },
    why: "partitioning tools rewrite a disk's partition table",
    instead: "use `lsblk` or `fdisk -l` to inspect disks, and ask the user to repartition",
  },
  {
    id: "disk.discard",
    effect: "deny",
    command: { program: ["blkdiscard", "cryptsetup"], targets: ["device"] },
    why: "it destroys the data on a block device",
    instead: "ask the user to do this themselves",
  },
  {
    id: "sys.shutdown",
    effect: "deny",
    command: { program: ["shutdown", "reboot", "halt", "poweroff"], flags_none: ["-c", "--help"] },
    why: "it shuts down or restarts the machine",
    instead: "ask the user to restart the machine when they are ready",
  },
  {
    id: "sys.systemctl-power",
    effect: "deny",
    command: { program: ["systemctl", "loginctl"], args: ["poweroff|reboot|halt|kexec|suspend|hibernate|rescue|emergency"] },
    why: "it changes the machine's power state",
    instead: "ask the user to restart the machine when they are ready",
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
    command: { program: ["kill"], args: ["1"] },
    why: "killing process 1 (init) brings the whole system down",
    instead: "kill the specific process you started, by its own pid",
  },
  {
    id: "sys.kill-all",
    effect: "deny",
    command: { program: ["kill"], flags_all: [["-9", "-KILL", "-SIGKILL", "-15", "-TERM", "-s"], ["-1"]] },
    why: "`kill -9 -1` kills every process the user owns, the session included",
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
    id: "sys.fork-bomb",
    effect: "deny",
    forkBomb: true,
    why: "a function that forks copies of itself exhausts the machine's processes",
    instead: "there is no safe form of this; write a bounded loop if you need load",
  },
];
