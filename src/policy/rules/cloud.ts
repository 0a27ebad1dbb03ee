/**
 * Cloud, platform and cluster destruction: the delete, terminate and destroy verbs of the major
 * cloud and platform CLIs, syncs that delete at the destination, and infrastructure-as-code destroy.
 */
import type { RuleSpec } from "./types.ts";

const kubectl = ["kubectl", "oc", "microk8s.kubectl", "k", "kubecolor", "k3s"];

/** The AWS CLI under its names (LocalStack's `awslocal`, Windows' `aws.exe`). */
const AWS = ["aws", "awslocal", "aws.exe", "aws2"];

/** Terraform and its forks and wrappers (LocalStack's `tflocal`). */
const TERRAFORM = ["terraform", "tofu", "terragrunt", "terraform.exe", "tofu.exe", "tflocal"];

/** Help requests: they print usage and change nothing (`terraform destroy -help`, `kubectl delete --help`). */
const HELP = ["--help", "-help", "-h"];

/** Dry runs, in the spellings the CLIs below use. */
const DRY_RUN = ["--dry-run", "--dryrun", "-dry-run"];

/** Kubernetes kinds whose deletion loses workloads, storage, configuration or access. */
const KUBE_KINDS = [
  "pvc", "pv", "persistentvolumeclaim", "persistentvolumeclaims", "persistentvolume", "persistentvolumes", "deployment", "deployments", "deploy",
  "statefulset", "statefulsets", "sts", "daemonset", "daemonsets", "ds", "service", "services", "svc", "secret", "secrets", "configmap", "configmaps",
  "cm", "crd", "crds", "customresourcedefinition", "customresourcedefinitions", "node", "nodes", "no", "ingress", "ingresses", "ing", "replicaset",
  "replicasets", "rs", "cronjob", "cronjobs", "cj", "storageclass", "storageclasses", "sc", "clusterrole", "clusterroles", "clusterrolebinding",
  "clusterrolebindings", "role", "roles", "rolebinding", "rolebindings", "serviceaccount", "serviceaccounts", "sa", "networkpolicy",
  "networkpolicies", "netpol", "horizontalpodautoscaler", "horizontalpodautoscalers", "hpa", "mutatingwebhookconfiguration",
  "mutatingwebhookconfigurations", "validatingwebhookconfiguration", "validatingwebhookconfigurations", "apiservice", "apiservices",
  // operators' resources whose deletion cascades: GitOps apps and releases, databases, brokers, snapshots and backups
  "application", "applications", "applicationset", "applicationsets", "helmrelease", "helmreleases", "hr", "kustomization", "kustomizations",
  "postgrescluster", "postgresclusters", "postgresql", "postgresqls", "cluster.postgresql.cnpg.io", "clusters.postgresql.cnpg.io", "kafka",
  "kafkas", "elasticsearch", "elasticsearches", "mongodbcommunity", "volumesnapshot", "volumesnapshots", "volumesnapshotcontent",
  "volumesnapshotcontents", "backup", "backups",
];

/** The REST APIs of forges, clouds and platforms, where a `DELETE` request removes a repository, server, app or zone. */
const CLOUD_API_URLS = [
  "*api.github.com/*", "*gitlab.com/api/*", "*/api/v4/projects/*", "*api.bitbucket.org/*", "*api.digitalocean.com/*", "*api.cloudflare.com/*",
  "*api.heroku.com/*", "*api.vercel.com/*", "*api.netlify.com/*", "*api.linode.com/*", "*api.hetzner.cloud/*", "*api.machines.dev/*",
  "*api.fly.io/*", "*management.azure.com/*", "*.googleapis.com/*", "*api.render.com/*", "*api.supabase.com/*", "*api.vultr.com/*",
  "*api.scaleway.com/*", "*console.neon.tech/api/*", "*api.planetscale.com/*", "*hub.docker.com/v2/*", "*.amazonaws.com/*",
];
const CLOUD_APIS = CLOUD_API_URLS.join("|");
const DELETE_METHOD = ["DELETE", "delete"];

/** `kubectl delete -f` values that name a directory of manifests (`k8s/`, `.`); one file is scoped. */
const KUBE_DIRS = ["*/", ".", "..", "./", "../"];

/**
 * Every kind alone (`kubectl delete secret x`), as `kind/name` (`kubectl delete deploy/web`) and with
 * its API group (`deployments.apps`, `applications.argoproj.io/web`).
 */
const KUBE_KIND_WORDS = [...KUBE_KINDS, ...KUBE_KINDS.flatMap((k) => [`${k}/*`, `${k}.*`]), "all", "*,*"].join("|");

export const cloudRules: readonly RuleSpec[] = [
  {
    id: "cloud.terraform-destroy",
    effect: "deny",
    command: { program: [...TERRAFORM, "cdktf"], args: ["**", "destroy|destroy-all"], flags_none: HELP },
    why: "it destroys every resource the configuration manages",
    instead: "run `terraform plan -destroy` and hand the plan to the user",
  },
  {
    id: "cloud.terraform-apply-destroy",
    effect: "deny",
    command: { program: TERRAFORM, args: ["**", "apply"], flags_any: ["-destroy", "--destroy"], flags_none: HELP },
    why: "`apply -destroy` destroys every resource the configuration manages",
    instead: "run `terraform plan -destroy` and hand the plan to the user",
  },
  {
    id: "cloud.terraform-apply-destroy-plan",
    effect: "deny",
    command: { program: TERRAFORM, args: ["**", "apply", "*destroy*"], flags_none: HELP },
    why: "it applies a saved destroy plan, which destroys the resources it lists",
    instead: "hand the destroy plan to the user to apply",
  },
  {
    id: "cloud.terraform-workspace-delete",
    effect: "deny",
    command: { program: TERRAFORM, args: ["**", "workspace", "delete"], flags_none: HELP },
    why: "deleting a workspace deletes its state, and with `-force` leaves its resources unmanaged",
    instead: "ask the user to delete workspaces",
  },
  {
    id: "cloud.iac-destroy",
    effect: "deny",
    command: {
      program: [
        "pulumi", "cdk", "cdklocal", "sst", "serverless", "sls", "sam", "samlocal", "copilot", "amplify", "ampx", "eksctl", "azd", "cdk8s", "crossplane", "juju", "nomad", "waypoint",
        "encore", "railway", "zappa", "chalice", "kamal", "mrsk", "kops", "rosa", "openshift-install", "clusterctl", "claudia", "arc", "architect",
      ],
      args: ["**", "destroy|down|remove|delete|undeploy|teardown|purge"],
      flags_none: ["--help", "-h", "--dry-run", "--preview", "--preview-only"],
    },
    why: "it tears down the deployed stack and the resources it created",
    instead: "preview the change and ask the user to run the teardown",
  },
  {
    id: "cloud.pulumi-stack-rm",
    effect: "deny",
    command: { program: ["pulumi"], args: ["**", "stack", "rm|remove"], flags_none: HELP },
    why: "`pulumi stack rm` deletes the stack and its state (with `--force`, while it still manages resources)",
    instead: "ask the user to remove stacks",
  },
  {
    id: "cloud.vagrant-destroy",
    effect: "deny",
    command: { program: ["vagrant"], args: ["**", "destroy"], flags_none: HELP },
    why: "`vagrant destroy` deletes the machine and every file on its disks",
    instead: "stop it with `vagrant halt`, or ask the user to destroy it",
  },
  {
    id: "cloud.nomad-purge",
    effect: "deny",
    command: { program: ["nomad"], args: ["**", "stop"], flags_any: ["-purge", "--purge"], flags_none: HELP },
    why: "`nomad job stop -purge` stops the job and deletes it with its history",
    instead: "stop the job without `-purge`, or ask the user",
  },
  {
    id: "cloud.aws-s3-recursive-delete",
    effect: "deny",
    command: { program: AWS, args: ["**", "s3", "rm"], flags_any: ["--recursive"], flags_none: [...DRY_RUN, ...HELP] },
    why: "it deletes every object under the S3 prefix",
    instead: "delete the specific objects by key, or use `--dryrun` to list them first",
  },
  {
    id: "cloud.aws-s3-remove-bucket",
    effect: "deny",
    command: { program: AWS, args: ["**", "s3", "rb"], flags_none: HELP },
    why: "it deletes an S3 bucket (with `--force`, and all its objects)",
    instead: "ask the user to delete buckets",
  },
  {
    id: "cloud.aws-s3-sync-delete",
    effect: "deny",
    command: { program: AWS, args: ["**", "s3", "sync"], flags_any: ["--delete"], flags_none: [...DRY_RUN, ...HELP] },
    why: "`aws s3 sync --delete` deletes every object at the destination that the source lacks",
    instead: "run it with `--dryrun` and show the user the list, or sync without `--delete`",
  },
  {
    id: "cloud.aws-cloudformation-delete",
    effect: "deny",
    command: { program: AWS, args: ["**", "cloudformation", "delete-stack"], flags_none: HELP },
    why: "it deletes a CloudFormation stack and the resources it created",
    instead: "ask the user to delete stacks",
  },
  {
    id: "cloud.aws-delete-database",
    effect: "deny",
    command: { program: AWS, args: ["**", "rds", "delete-db-instance|delete-db-cluster"], flags_none: HELP },
    why: "it deletes a managed database",
    instead: "ask the user to delete databases",
  },
  {
    id: "cloud.aws-terminate-instances",
    effect: "deny",
    command: { program: AWS, args: ["**", "ec2", "terminate-instances"], flags_none: [...DRY_RUN, ...HELP] },
    why: "it terminates EC2 instances and their instance storage",
    instead: "stop instances with `aws ec2 stop-instances`, or ask the user",
  },
  {
    id: "cloud.aws-delete",
    effect: "deny",
    command: {
      program: AWS,
      args: ["**", "*", "delete-*|terminate-*|purge-*|deregister-*|schedule-key-deletion|remove-*-from-*|batch-delete-*|empty-*|disable-*-deletion-protection|reset-*|close-account"],
      flags_none: [...DRY_RUN, ...HELP],
    },
    why: "it deletes or terminates cloud resources, which cannot be brought back",
    instead: "ask the user to delete cloud resources, or describe what would be removed",
  },
  {
    id: "cloud.gsutil-recursive-delete",
    effect: "deny",
    command: { program: ["gsutil"], args: ["rm"], flags_any: ["-r", "-R", "-a"], flags_none: HELP },
    why: "it deletes every object under the Cloud Storage path",
    instead: "delete the specific objects by name",
  },
  {
    id: "cloud.gsutil-remove-bucket",
    effect: "deny",
    command: { program: ["gsutil"], args: ["rb"], flags_none: HELP },
    why: "it deletes a Cloud Storage bucket",
    instead: "ask the user to delete buckets",
  },
  {
    id: "cloud.gsutil-rsync-delete",
    effect: "deny",
    command: { program: ["gsutil"], args: ["rsync"], flags_any: ["-d"], flags_none: ["-n"] },
    why: "`gsutil rsync -d` deletes every object at the destination that the source lacks",
    instead: "run it with `-n` and show the user the list, or sync without `-d`",
  },
  {
    id: "cloud.gcloud-storage-recursive-delete",
    effect: "deny",
    command: { program: ["gcloud"], args: ["**", "storage", "rm"], flags_any: ["-r", "-R", "--recursive", "-a", "--all-versions"], flags_none: HELP },
    why: "it deletes every object under the Cloud Storage path",
    instead: "delete the specific objects by name",
  },
  {
    id: "cloud.storage-wildcard-delete",
    effect: "deny",
    command: {
      program: ["gsutil", "gcloud", "s5cmd"],
      args: ["**", "rm", "**", "gs://*/\\*|gs://*/\\*\\*|gs://*/\\*\\*/\\*|s3://*/\\*|s3://*/\\*\\*"],
      // recursive forms are the recursive-delete rules' own
      flags_none: ["-r", "-R", "--recursive", "-a", "--all-versions", ...DRY_RUN, ...HELP],
    },
    why: "a wildcard that ends a bucket path (`gs://bucket/**`) deletes every object under it",
    instead: "delete the specific objects by name",
  },
  {
    id: "cloud.s5cmd-remove-bucket",
    effect: "deny",
    command: { program: ["s5cmd"], args: ["**", "rb"], flags_none: [...DRY_RUN, ...HELP] },
    why: "it deletes an S3 bucket",
    instead: "ask the user to delete buckets",
  },
  {
    id: "cloud.gcloud-rsync-delete",
    effect: "deny",
    command: { program: ["gcloud"], args: ["**", "storage", "rsync"], flags_any: ["--delete-unmatched-destination-objects"], flags_none: [...DRY_RUN, ...HELP] },
    why: "`--delete-unmatched-destination-objects` deletes every object at the destination that the source lacks",
    instead: "sync without deleting, or run with `--dry-run` and show the user the list",
  },
  {
    id: "cloud.gcloud-projects-delete",
    effect: "deny",
    command: { program: ["gcloud"], args: ["**", "projects", "delete"], flags_none: HELP },
    why: "it deletes a whole Google Cloud project",
    instead: "ask the user to delete projects",
  },
  {
    id: "cloud.gcloud-delete",
    effect: "deny",
    command: { program: ["gcloud"], args: ["**", "delete|delete-*|purge"], flags_none: ["--help", "-h"] },
    why: "it deletes Google Cloud resources, which cannot be brought back",
    instead: "ask the user to delete cloud resources, or list what would be removed",
  },
  {
    id: "cloud.az-group-delete",
    effect: "deny",
    command: { program: ["az"], args: ["group", "delete"], flags_none: HELP },
    why: "it deletes an Azure resource group and everything in it",
    instead: "ask the user to delete resource groups",
  },
  {
    id: "cloud.az-delete",
    effect: "deny",
    command: { program: ["az", "azcopy"], args: ["**", "delete|delete-batch|purge|remove|rm"], flags_none: ["--help", "-h", "--dry-run"] },
    why: "it deletes Azure resources or storage, which cannot be brought back",
    instead: "ask the user to delete cloud resources, or list what would be removed",
  },
  {
    id: "cloud.azcopy-sync-delete",
    effect: "deny",
    command: { program: ["azcopy", "az"], args: ["**", "sync"], option_values: { "--delete-destination": ["true", "True", "TRUE", "prompt"] }, flags_none: [...DRY_RUN, ...HELP] },
    why: "`--delete-destination` deletes every blob at the destination that the source lacks",
    instead: "sync without `--delete-destination`, or ask the user",
  },
  {
    id: "cloud.storage-sync-delete",
    effect: "deny",
    command: {
      program: ["b2", "s5cmd", "oci", "ossutil", "ossutil64", "coscli", "obsutil", "aliyun", "tccli"],
      args: ["**", "sync|mirror|rsync"],
      flags_any: ["--delete", "--delete-removed", "--delete-after", "--replace-newer", "--replaceNewer"],
      flags_none: [...DRY_RUN, ...HELP],
    },
    why: "syncing with `--delete` deletes every object at the destination that the source lacks",
    instead: "sync without deleting, or run a dry run and show the user the list",
  },
  {
    id: "cloud.compound-delete",
    effect: "deny",
    command: {
      // CLIs whose verbs are compound words: `ibmcloud resource service-instance-delete`,
      // `aliyun ecs DeleteInstance`, `tccli cvm TerminateInstances`, `cbt deletetable`
      program: ["ibmcloud", "ic", "bx", "aliyun", "tccli", "cbt", "bce", "ksyun", "ucloud", "jdc"],
      args: ["**", "*-delete|*-rm|*-destroy|*-purge|*-remove|delete*|terminate*|release*|destroy*|purge*|remove*"],
      flags_none: HELP,
    },
    why: "it deletes cloud resources, which cannot be brought back",
    instead: "ask the user to delete cloud resources, or list what would be removed",
  },
  {
    id: "cloud.linode-delete",
    effect: "deny",
    command: { program: ["linode-cli", "linode"], args: ["**", "*-delete|*-rm|*-destroy"], flags_none: HELP },
    why: "it deletes Linode resources (clusters, databases, keys), which cannot be brought back",
    instead: "ask the user to delete cloud resources, or list what would be removed",
  },
  {
    id: "cloud.platform-delete",
    effect: "deny",
    command: {
      program: ["doctl", "linode-cli", "hcloud", "vultr-cli", "scw", "exo", "civo", "ibmcloud", "oci", "aliyun", "upcloud", "openstack", "nova", "cinder", "glance", "swift", "s3cmd", "mc", "b2", "wrangler", "netlify", "firebase", "supabase", "neonctl", "planetscale", "pscale", "turso", "upstash", "atlas", "heroku", "render", "railway", "fly", "flyctl", "vercel", "vc", "now", "surge", "gh", "glab", "hub", "tea", "eb", "lightsail", "ecs-cli", "cf", "koyeb", "northflank", "porter", "qovery", "appwrite", "nhost", "convex", "pocketbase", "deta", "zeabur", "metal", "confluent", "databricks", "bq", "dokku", "argocd", "flux", "velero", "cloudflared", "mongocli", "ovhcloud", "stackit", "ionosctl", "exoscale", "sf", "sfdx"],
      args: [
        "**",
        "delete|destroy|rm|rb|del|remove|purge|terminate|prune|permanent-delete|*:destroy|*:delete|*:remove|*:reset|*:purge|*:wipe|*:drop|apps:destroy|apps:delete|addons:destroy|pg:reset|redis:reset|sites:delete|projects:delete|database:remove|firestore:delete|hosting:disable|functions:delete|delete-app|delete-service|delete-space|delete-orphaned-routes|db:reset|drop|wipe|nuke|destroy-all|rmdir|rmb|cleanup|mb-delete|delete-bucket|delete-file-version|delete-key|delete-branch|dbs:destroy|delete-manifest|delete-tag",
      ],
      flags_none: ["--help", "-h", "--dry-run", "--dryrun"],
    },
    why: "it deletes a cloud app, database, bucket, repository or other hosted resource",
    instead: "ask the user to delete hosted resources, or list what would be removed",
  },
  {
    id: "cloud.runner-destroy",
    effect: "deny",
    command: {
      program: ["npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "npm"],
      args: ["**", "cdk|sst|serverless|sls|wrangler|vercel|netlify|netlify-cli|firebase|firebase-tools|supabase|pulumi|cdktf|amplify|@aws-amplify/cli|aws-cdk", "**", "destroy|delete|remove|rm|purge|sites:delete|projects:delete|firestore:delete|database:remove"],
      flags_none: ["--help", "-h", "--dry-run"],
    },
    why: "it tears down a deployed stack, app or hosted resource",
    instead: "ask the user to delete hosted resources, or preview what would be removed",
  },
  {
    id: "cloud.gh-api-delete",
    effect: "deny",
    command: { program: ["gh", "glab"], args: ["api"], option_values: { "-X": ["DELETE", "delete", "Delete"] } },
    why: "a `DELETE` request to the forge API removes a repository, branch, release or other resource",
    instead: "ask the user to delete the resource",
  },
  {
    id: "cloud.gh-api-delete-long",
    effect: "deny",
    command: { program: ["gh", "glab"], args: ["api"], option_values: { "--method": ["DELETE", "delete", "Delete"] } },
    why: "a `DELETE` request to the forge API removes a repository, branch, release or other resource",
    instead: "ask the user to delete the resource",
  },
  {
    id: "cloud.api-delete",
    effect: "deny",
    command: { program: ["curl", "curl.exe"], args: ["**", CLOUD_APIS], option_values: { "-X": DELETE_METHOD } },
    why: "a `DELETE` request to a cloud or forge API removes a repository, server, app or other resource",
    instead: "ask the user to delete the resource",
  },
  {
    id: "cloud.api-delete-long",
    effect: "deny",
    command: { program: ["curl", "curl.exe"], args: ["**", CLOUD_APIS], option_values: { "--request": DELETE_METHOD } },
    why: "a `DELETE` request to a cloud or forge API removes a repository, server, app or other resource",
    instead: "ask the user to delete the resource",
  },
  {
    id: "cloud.api-delete-url",
    effect: "deny",
    command: { program: ["curl", "curl.exe"], option_values: { "--url": CLOUD_API_URLS, "-X": DELETE_METHOD } },
    why: "a `DELETE` request to a cloud or forge API removes a repository, server, app or other resource",
    instead: "ask the user to delete the resource",
  },
  {
    id: "cloud.api-delete-url-long",
    effect: "deny",
    command: { program: ["curl", "curl.exe"], option_values: { "--url": CLOUD_API_URLS, "--request": DELETE_METHOD } },
    why: "a `DELETE` request to a cloud or forge API removes a repository, server, app or other resource",
    instead: "ask the user to delete the resource",
  },
  {
    id: "cloud.api-delete-httpie",
    effect: "deny",
    command: { program: ["http", "https", "xh", "xhs"], args: ["**", "delete", CLOUD_APIS] },
    why: "a `DELETE` request to a cloud or forge API removes a repository, server, app or other resource",
    instead: "ask the user to delete the resource",
  },
  {
    id: "cloud.rclone-delete",
    effect: "deny",
    command: { program: ["rclone"], args: ["sync|purge|delete|deletefile|rmdirs|rmdir|cleanup|dedupe|bisync"], flags_none: ["--dry-run", "-n", "--help", "-h", "--interactive", "-i"] },
    why: "it deletes files at the remote (`sync` deletes whatever the source lacks)",
    instead: "run it with `--dry-run` and show the user the list, or use `rclone copy`",
  },
  {
    id: "cloud.s3cmd-sync-delete",
    effect: "deny",
    command: { program: ["s3cmd"], args: ["sync"], flags_any: ["--delete-removed", "--delete-after"], flags_none: ["--dry-run", "-n", ...HELP] },
    why: "`s3cmd sync --delete-removed` deletes every object at the destination that the source lacks",
    instead: "sync without deleting, or run with `--dry-run` and show the user the list",
  },
  {
    id: "cloud.mc-mirror-remove",
    effect: "deny",
    command: { program: ["mc", "mcli"], args: ["mirror"], flags_any: ["--remove", "--overwrite"], flags_none: [...DRY_RUN, ...HELP] },
    why: "`mc mirror --remove` deletes every object at the destination that the source lacks",
    instead: "mirror without `--remove`, or ask the user",
  },
  {
    id: "cloud.kubectl-delete-namespace",
    effect: "deny",
    command: { program: kubectl, args: ["delete", "namespace|namespaces|ns|project|projects"], flags_none: ["--dry-run", ...HELP] },
    why: "deleting a namespace deletes every resource in it",
    instead: "delete the specific resources by name, or ask the user",
  },
  {
    id: "cloud.kubectl-delete-namespace-slash",
    effect: "deny",
    command: { program: kubectl, args: ["delete", "**", "namespace/*|namespaces/*|ns/*|project/*|projects/*"], flags_none: ["--dry-run", ...HELP] },
    why: "deleting a namespace deletes every resource in it",
    instead: "delete the specific resources by name, or ask the user",
  },
  {
    id: "cloud.kubectl-delete-all",
    effect: "deny",
    command: { program: kubectl, args: ["delete"], flags_any: ["--all", "-A", "--all-namespaces"], flags_none: ["--dry-run", ...HELP] },
    why: "`kubectl delete --all` deletes every resource of the kind",
    instead: "delete the specific resources by name or label selector",
  },
  {
    id: "cloud.kubectl-delete-manifests",
    effect: "deny",
    command: { program: kubectl, args: ["delete"], flags_any: ["-k", "--kustomize", "-R", "--recursive"], flags_none: ["--dry-run", ...HELP] },
    why: "it deletes every resource of a kustomization or a manifest tree (workloads, volumes, namespaces)",
    instead: "run it with `--dry-run=client` and show the user the list, or ask the user",
  },
  {
    id: "cloud.kubectl-delete-manifest-dir",
    effect: "deny",
    command: { program: kubectl, args: ["delete"], option_values: { "-f": KUBE_DIRS }, flags_none: ["--dry-run", ...HELP] },
    why: "it deletes every resource the manifests of a directory declare (workloads, volumes, namespaces)",
    instead: "delete the one manifest or resource meant, or run it with `--dry-run=client` and show the user the list",
  },
  {
    id: "cloud.kubectl-delete-manifest-dir-long",
    effect: "deny",
    command: { program: kubectl, args: ["delete"], option_values: { "--filename": KUBE_DIRS }, flags_none: ["--dry-run", ...HELP] },
    why: "it deletes every resource the manifests of a directory declare (workloads, volumes, namespaces)",
    instead: "delete the one manifest or resource meant, or run it with `--dry-run=client` and show the user the list",
  },
  {
    id: "cloud.kubectl-delete",
    effect: "deny",
    command: {
      program: kubectl,
      args: ["delete", KUBE_KIND_WORDS],
      flags_none: ["--dry-run", "--help", "-h"],
    },
    why: "it deletes cluster workloads, storage or configuration",
    instead: "scale the workload down, or ask the user to delete it",
  },
  {
    id: "cloud.kubectl-drain",
    effect: "deny",
    command: { program: kubectl, args: ["drain|cordon"], flags_any: ["--delete-emptydir-data", "--delete-local-data", "--force"] },
    why: "draining with `--delete-emptydir-data`/`--force` deletes pods and their local data",
    instead: "ask the user to drain nodes",
  },
  {
    id: "cloud.helm-uninstall",
    effect: "deny",
    command: { program: ["helm", "helm3", "helmfile"], args: ["**", "uninstall|delete|del|un|destroy"], flags_none: ["--dry-run", "--help", "-h"] },
    why: "`helm uninstall` deletes every resource of the release",
    instead: "ask the user to uninstall releases",
  },
  {
    id: "cloud.heroku-destroy",
    effect: "deny",
    command: { program: ["heroku"], args: ["apps:destroy"], flags_none: HELP },
    why: "it deletes a Heroku app and its add-ons",
    instead: "ask the user to delete apps",
  },

  {
    id: "container.docker-prune-volumes",
    effect: "deny",
    command: { program: ["docker", "podman", "nerdctl", "finch"], args: ["system", "prune"], flags_any: ["--volumes"], flags_none: ["--help", "-h"] },
    why: "`docker system prune --volumes` deletes every unused volume and the data in it",
    instead: "remove the specific container or volume by name, after checking it holds nothing needed",
  },
  {
    id: "container.docker-rm-volumes",
    effect: "deny",
    // `-v` takes the container's anonymous volumes with it: where images such as postgres keep their data
    command: { program: ["docker", "podman", "nerdctl", "finch"], args: ["rm"], flags_any: ["-v", "--volumes"], flags_none: ["--help", "-h"] },
    why: "`docker rm -v` deletes the container's anonymous volumes, and the data in them, with it",
    instead: "remove the container without `-v` (`docker rm NAME`); delete a volume by name once you know it holds nothing needed",
  },
  {
    id: "container.docker-rm-all",
    effect: "deny",
    // `*` is what the shell analysis writes for a listing of every container (`$(docker ps -aq)`)
    command: { program: ["docker", "podman", "nerdctl", "finch"], args: ["rm", "**", "\\*"], flags_none: ["--help", "-h"] },
    why: "it removes every container, with the data in their writable layers",
    instead: "remove the containers you mean by name, or `docker container prune` to remove only stopped ones",
  },
  {
    id: "container.docker-container-rm-all",
    effect: "deny",
    command: { program: ["docker", "podman", "nerdctl", "finch"], args: ["container", "rm", "**", "\\*"], flags_none: ["--help", "-h"] },
    why: "it removes every container, with the data in their writable layers",
    instead: "remove the containers you mean by name, or `docker container prune` to remove only stopped ones",
  },
  {
    id: "container.docker-container-rm-volumes",
    effect: "deny",
    command: { program: ["docker", "podman", "nerdctl", "finch"], args: ["container", "rm"], flags_any: ["-v", "--volumes"], flags_none: ["--help", "-h"] },
    why: "`docker container rm -v` deletes the container's anonymous volumes, and the data in them, with it",
    instead: "remove the container without `-v` (`docker container rm NAME`); delete a volume by name once you know it holds nothing needed",
  },
  {
    id: "container.docker-volume-prune",
    effect: "deny",
    command: { program: ["docker", "podman", "nerdctl", "finch"], args: ["volume", "prune"], flags_none: ["--help", "-h"] },
    why: "`docker volume prune` deletes every unused volume and the data in it",
    instead: "remove the specific volume by name, after checking it holds nothing needed",
  },
  {
    id: "container.system-reset",
    effect: "deny",
    command: { program: ["podman", "nerdctl", "colima", "orb", "orbctl", "lima", "limactl"], args: ["**", "system|machine", "reset"] },
    why: "a system reset deletes every container, image and volume",
    instead: "remove the specific containers or volumes by name",
  },
  {
    id: "container.docker-volume-rm",
    effect: "deny",
    command: { program: ["docker", "podman", "nerdctl", "finch"], args: ["volume", "rm|remove"], flags_none: ["--help", "-h"] },
    why: "removing a volume deletes the data in it (databases, uploads)",
    instead: "ask the user before removing volumes, or back them up first",
  },
  {
    id: "container.compose-down-volumes",
    effect: "deny",
    command: { program: ["docker", "podman", "nerdctl", "finch"], args: ["compose", "**", "down|rm"], flags_any: ["-v", "--volumes"], flags_none: ["--help", "-h"] },
    why: "`compose down -v` deletes the project's volumes and the data in them",
    instead: "run `docker compose down` without `-v`, which keeps the volumes",
  },
  {
    id: "container.compose-v1-down-volumes",
    effect: "deny",
    command: { program: ["docker-compose", "podman-compose"], args: ["**", "down|rm"], flags_any: ["-v", "--volumes"], flags_none: ["--help", "-h"] },
    why: "`compose down -v` deletes the project's volumes and the data in them",
    instead: "run `docker-compose down` without `-v`, which keeps the volumes",
  },
];
